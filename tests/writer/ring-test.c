/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the savefile writer thread's ring (libpcap/sf-writer.c),
 * meant to run under ThreadSanitizer as well as without it.
 *
 * The producer hands over numbered records of varying sizes, each
 * filled with a pattern derived from its number; the consumer callback
 * reassembles the byte stream (records are split wherever the ring
 * wraps) and checks every record.  Whatever the producer was told was
 * dropped must be exactly what the consumer never saw.  While the
 * consumer keeps up, the producer must keep to the start of a large
 * ring (hot_ring()).
 *
 * usage: ring-test
 * Prints TAP-like lines; exits non-zero on failure.
 */

#include <config.h>

#include "ftmacros.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pcap-int.h"

/*
 * The file under test, compiled into the test, so that the test can
 * call its static helpers too (the clock of its timed waits).
 */
#include "sf-writer.c"

/*
 * sf-writer.c reports errors through libpcap's formatter; the test
 * builds the file on its own, so it brings its own.
 */
void
pcapint_fmt_errmsg_for_errno(char *errbuf, size_t errbuflen, int errnum,
    PCAP_FORMAT_STRING(const char *fmt), ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(errbuf, errbuflen, fmt, ap);
	va_end(ap);
	n = strlen(errbuf);
	snprintf(errbuf + n, errbuflen - n, ": %s", strerror(errnum));
}

#define	MAX_RECORD	1500
#define	HDR		8		/* u32 length, u32 number */

static int failures;
static int checks;

static void
check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	printf("%s %d - ", ok ? "ok" : "not ok", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		failures++;
}

static unsigned char
pattern(uint32_t number, size_t i)
{
	return ((unsigned char)(number * 31u + i * 7u + 1u));
}

/* The consumer's reassembly state; touched by the writer thread only. */
struct sink {
	unsigned char	rec[MAX_RECORD];
	size_t		have;		/* bytes of the current record */
	uint32_t	last;		/* number of the last record seen */
	int		seen_any;
	uint64_t	records;
	uint64_t	bytes;
	int		bad;		/* first corruption found */
	char		*seen;		/* seen[n]: record n arrived */
	uint32_t	nrecords;
	int		slow;		/* sleep now and then */
	uint64_t	fail_after;	/* return ENOSPC after this many bytes */
	int		signals_blocked;
	int		nice;		/* the writer thread's nice value */
	uint64_t	flushes;
};

static int sink_consume(void *, const unsigned char *, size_t);
static int sink_flush(void *);
static const struct pcapint_writer_ops sink_ops = { sink_consume, sink_flush };

/* This thread's own nice value (per thread on Linux). */
static int
thread_nice(void)
{
	return (getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid)));
}

static struct pcapint_writer *
start(size_t ring, int cpu, int nice_incr, int blocking, struct sink *s,
    char *errbuf)
{
	struct pcapint_writer_params params;

	memset(&params, 0, sizeof(params));
	params.ring_size = ring;
	params.cpu = cpu;
	params.nice_incr = nice_incr;
	params.blocking = blocking;
	return (pcapint_writer_start(&params, &sink_ops, s, errbuf));
}

static int
sink_consume(void *ctx, const unsigned char *buf, size_t len)
{
	struct sink *s = ctx;
	sigset_t mask;
	uint32_t rlen, number;
	size_t take, i;

	if (s->records == 0 && s->bytes == 0) {
		pthread_sigmask(SIG_BLOCK, NULL, &mask);
		s->signals_blocked = sigismember(&mask, SIGINT) &&
		    sigismember(&mask, SIGALRM) && sigismember(&mask, SIGTERM);
		s->nice = thread_nice();
	}
	if (s->fail_after != 0 && s->bytes + len > s->fail_after)
		return (ENOSPC);
	s->bytes += len;
	if (s->slow && (s->bytes & 0x3ff) < len) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	while (len != 0) {
		/* Complete the header first, then the whole record. */
		if (s->have < HDR)
			take = HDR - s->have;
		else {
			memcpy(&rlen, s->rec, 4);
			take = rlen - s->have;
		}
		if (take > len)
			take = len;
		memcpy(s->rec + s->have, buf, take);
		s->have += take;
		buf += take;
		len -= take;
		if (s->have < HDR)
			continue;
		memcpy(&rlen, s->rec, 4);
		if (rlen < HDR || rlen > MAX_RECORD) {
			if (!s->bad)
				s->bad = 1;
			return (EINVAL);
		}
		if (s->have < rlen)
			continue;
		memcpy(&number, s->rec + 4, 4);
		for (i = HDR; i < rlen; i++)
			if (s->rec[i] != pattern(number, i))
				s->bad = 2;
		if (number >= s->nrecords || (s->seen_any && number <= s->last))
			s->bad = 3;
		else
			s->seen[number] = 1;
		s->last = number;
		s->seen_any = 1;
		s->records++;
		s->have = 0;
	}
	return (0);
}

static int
sink_flush(void *ctx)
{
	struct sink *s = ctx;

	s->flushes++;
	return (0);
}

/* produce() pauses for 20 us after every this many records; 0: never. */
static uint32_t produce_pause_every;

/*
 * Hand over n records; returns how many the producer was told were
 * dropped, and marks them.  Every flush_every records it flushes and
 * checks that the consumer has everything handed over so far.
 */
static uint64_t
produce(struct pcapint_writer *w, struct sink *s, uint32_t n, char *dropped,
    uint32_t flush_every, int *flush_ok)
{
	unsigned char rec[MAX_RECORD];
	uint32_t number, rlen, seed = 12345;
	uint64_t drops = 0, handed = 0;
	size_t i;
	int rc;

	*flush_ok = 1;
	for (number = 0; number < n; number++) {
		seed = seed * 1103515245u + 12345u;
		rlen = HDR + (seed >> 8) % (MAX_RECORD - HDR + 1);
		memcpy(rec, &rlen, 4);
		memcpy(rec + 4, &number, 4);
		for (i = HDR; i < rlen; i++)
			rec[i] = pattern(number, i);
		/*
		 * Half the records go in as header + data, as pcap_dump's do,
		 * half of those through the record's own way in.
		 */
		if ((number & 3) == 1 && rlen >= PCAP_REC_HDR_LEN)
			rc = pcapint_writer_put_record(w, rec,
			    rec + PCAP_REC_HDR_LEN, rlen - PCAP_REC_HDR_LEN);
		else if (number & 1)
			rc = pcapint_writer_put(w, rec, 16 < rlen ? 16 : rlen,
			    rec + (16 < rlen ? 16 : rlen),
			    rlen - (16 < rlen ? 16 : rlen));
		else
			rc = pcapint_writer_put(w, rec, rlen, NULL, 0);
		if (rc != 0) {
			dropped[number] = 1;
			drops++;
		} else
			handed += rlen;
		if (produce_pause_every != 0 &&
		    number % produce_pause_every == 0) {
			struct timespec ts = { 0, 20000 };

			nanosleep(&ts, NULL);
		}
		if (flush_every != 0 && number % flush_every == flush_every - 1) {
			if (pcapint_writer_flush(w) != 0 || s->bytes != handed)
				*flush_ok = 0;
			if (produce_pause_every != 0) {
				/* Time for the writer to go back to sleep. */
				struct timespec ts = { 0, 200000 };

				nanosleep(&ts, NULL);
			}
		}
	}
	return (drops);
}

/*
 * blocking: the producer waits for room, so a slow consumer makes it
 * wait, never drop.  nice_incr: the writer thread runs that much nicer
 * than the producer.
 */
static void
run(const char *name, size_t ring, uint32_t n, int slow, uint32_t flush_every,
    int blocking, int nice_incr)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcapint_writer *w;
	struct pcapint_writer_stats st;
	struct sink s;
	char *dropped;
	uint64_t drops, missing = 0, extra = 0;
	uint32_t i;
	int flush_ok, rc;

	memset(&s, 0, sizeof(s));
	s.nrecords = n;
	s.slow = slow;
	s.seen = calloc(n, 1);
	dropped = calloc(n, 1);
	w = start(ring, -1, nice_incr, blocking, &s, errbuf);
	if (w == NULL) {
		check(0, "%s: start: %s", name, errbuf);
		return;
	}
	drops = produce(w, &s, n, dropped, flush_every, &flush_ok);
	pcapint_writer_get_stats(w, &st);
	rc = pcapint_writer_stop(w);
	for (i = 0; i < n; i++) {
		if (!dropped[i] && !s.seen[i])
			missing++;
		if (dropped[i] && s.seen[i])
			extra++;
	}
	check(rc == 0 && s.bad == 0, "%s: every record arrives intact and in order (bad=%d)",
	    name, s.bad);
	check(missing == 0 && extra == 0,
	    "%s: exactly the records not reported dropped arrive (%llu missing, %llu extra)",
	    name, (unsigned long long)missing, (unsigned long long)extra);
	check(st.records_in + st.dropped_full == n && st.dropped_full == drops &&
	    s.records == st.records_in && s.bytes == st.bytes_in,
	    "%s: counts add up (%llu in + %llu dropped = %u; consumed %llu)",
	    name, (unsigned long long)st.records_in,
	    (unsigned long long)st.dropped_full, n,
	    (unsigned long long)s.records);
	check(st.high_water <= st.ring_size && st.ring_size >= ring,
	    "%s: high-water mark %zu within the ring (%zu)", name,
	    st.high_water, st.ring_size);
	if (flush_every != 0)
		check(flush_ok && s.flushes >= n / flush_every,
		    "%s: each flush returns only after everything handed over is consumed",
		    name);
	if (slow && !blocking)
		check(drops > 0, "%s: a slow consumer makes the producer drop (%llu), not wait",
		    name, (unsigned long long)drops);
	if (blocking)
		check(drops == 0 && s.records == n,
		    "%s: a blocking producer waits, drops nothing (%llu dropped, %llu of %u arrive)",
		    name, (unsigned long long)drops,
		    (unsigned long long)s.records, n);
	check(s.nice == (thread_nice() + nice_incr > 19 ? 19 :
	    thread_nice() + nice_incr),
	    "%s: the writer thread's nice value is %d (ours %d, asked +%d)",
	    name, s.nice, thread_nice(), nice_incr);
	check(s.signals_blocked, "%s: the writer thread blocks signals", name);
	free(s.seen);
	free(dropped);
}

/* blocking: the error must end the producer's wait, not hang it. */
static void
error_case(int blocking)
{
	const char *pfx;
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcapint_writer *w;
	struct pcapint_writer_stats st;
	struct sink s;
	char *dropped;
	uint32_t n = 20000;
	int flush_ok, rc;

	memset(&s, 0, sizeof(s));
	s.nrecords = n;
	s.seen = calloc(n, 1);
	/*
	 * Small enough that the sink fails whatever the producer drops: a
	 * loaded machine let it drop all but 100,000 bytes once, and the
	 * error never came.  The first 64 KiB always fit in the ring.
	 */
	s.fail_after = 1000;
	dropped = calloc(n, 1);
	pfx = blocking ? "blocking: " : "";
	w = start(1 << 16, -1, 0, blocking, &s, errbuf);
	if (w == NULL) {
		check(0, "error: start: %s", errbuf);
		return;
	}
	(void)produce(w, &s, n, dropped, 0, &flush_ok);
	rc = pcapint_writer_flush(w);
	check(rc == ENOSPC, "%sa consume error is sticky and reported by flush (%d)", pfx, rc);
	check(pcapint_writer_put(w, "x", 1, NULL, 0) == -1 &&
	    pcapint_writer_put_record(w, "0123456789abcdef", "x", 1) == -1,
	    "%safter an error, records are refused", pfx);
	pcapint_writer_get_stats(w, &st);
	check(st.error == ENOSPC && st.dropped_error > 0 &&
	    st.records_in + st.dropped_full + st.dropped_error == n + 2,
	    "%safter an error, every refused record is counted (%llu in, %llu full, %llu error)",
	    pfx,
	    (unsigned long long)st.records_in,
	    (unsigned long long)st.dropped_full,
	    (unsigned long long)st.dropped_error);
	rc = pcapint_writer_stop(w);
	check(rc == ENOSPC, "%sstop reports the sticky error (%d)", pfx, rc);
	free(s.seen);
	free(dropped);
}

static void
start_errors(void)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcapint_writer *w;
	struct sink s;

	memset(&s, 0, sizeof(s));
	errbuf[0] = '\0';
	w = start(1 << 16, 99999, 0, 0, &s, errbuf);
	check(w == NULL && strstr(errbuf, "CPU 99999") != NULL,
	    "pinning to a CPU that does not exist fails and names it: %s", errbuf);
	w = start(1 << 16, 0, 0, 0, &s, errbuf);
	check(w != NULL, "pinning to CPU 0 works%s%s", w ? "" : ": ",
	    w ? "" : errbuf);
	if (w != NULL)
		check(pcapint_writer_stop(w) == 0, "an idle pinned writer stops cleanly");
}

/*
 * The writer's timed waits (writer_wait()): on CLOCK_MONOTONIC where a
 * condition variable can be given a clock, and, whichever clock it is,
 * a deadline on it lasts as long as asked (a deadline read from another
 * clock than the condition variable's would be decades off).
 */
static void
timed_waits(void)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcapint_writer *w;
	struct sink s;
	struct timespec t0, t1;
	long ms;
	int rc, spurious = 0;

	memset(&s, 0, sizeof(s));
	w = start(1 << 16, -1, 0, 0, &s, errbuf);
	if (w == NULL) {
		check(0, "a writer for the timed waits starts: %s", errbuf);
		return;
	}
#if defined(HAVE_PTHREAD_CONDATTR_SETCLOCK) && defined(CLOCK_MONOTONIC)
	check(w->clock == CLOCK_MONOTONIC,
	    "timed waits are on CLOCK_MONOTONIC (clock %d)", (int)w->clock);
#else
	check(w->clock == CLOCK_REALTIME,
	    "without pthread_condattr_setclock(), on CLOCK_REALTIME");
#endif
	/* Nothing signals "done" while no flush is asked for. */
	pthread_mutex_lock(&w->lock);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((rc = writer_wait(w, &w->done, 1200)) == 0 && spurious < 10)
		spurious++;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_mutex_unlock(&w->lock);
	ms = (long)(t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000;
	check(rc == ETIMEDOUT && ms >= 1190 && ms < 10000 + spurious * 1200,
	    "a 1.2 s deadline times out after 1.2 s (%ld ms, %s)", ms,
	    strerror(rc));
	check(pcapint_writer_stop(w) == 0, "the idle writer stops cleanly");
}

/* How many of the ring's pages are resident (mincore(2)). */
static size_t
resident_pages(struct pcapint_writer *w, size_t *npages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i, n = 0;
	uintptr_t start = (uintptr_t)w->ring & ~(uintptr_t)(page - 1);
	size_t len = (size_t)((uintptr_t)w->ring + w->size - start);
	unsigned char *vec;

	*npages = (len + page - 1) / page;
	vec = calloc(*npages, 1);
	if (vec == NULL || mincore((void *)start, len, vec) != 0) {
		free(vec);
		return ((size_t)-1);
	}
	for (i = 0; i < *npages; i++)
		n += vec[i] & 1;
	free(vec);
	return (n);
}

/*
 * While the writer keeps up, the producer keeps to the first
 * WRITER_HOT_BYTES of the ring (writer_rewind()): after twice the
 * ring's size has gone through a 64 MiB ring, most of it was never
 * touched, so its pages are not resident, and every record arrived,
 * counted as before.  The producer pauses now and then, as a link
 * does, and flushes every 256 records (about 190 KB), so that the
 * writer keeps up and sleeps however slow it is (under ThreadSanitizer,
 * on a loaded machine).
 */
static void
hot_ring(void)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcapint_writer *w;
	struct pcapint_writer_stats st;
	struct sink s;
	char *dropped;
	uint32_t n = 180000;	/* about 135 MB of records */
	uint64_t drops, rewinds;
	size_t resident, npages;
	int flush_ok, rc;

	memset(&s, 0, sizeof(s));
	s.nrecords = n;
	s.seen = calloc(n, 1);
	dropped = calloc(n, 1);
	w = start((size_t)1 << 26, -1, 0, 0, &s, errbuf);
	if (w == NULL) {
		check(0, "hot ring: start: %s", errbuf);
		return;
	}
	produce_pause_every = 16;
	drops = produce(w, &s, n, dropped, 256, &flush_ok);
	produce_pause_every = 0;
	rc = pcapint_writer_flush(w);
	resident = resident_pages(w, &npages);
	rewinds = w->rewinds;
	pcapint_writer_get_stats(w, &st);
	check(rc == 0 && flush_ok && s.bad == 0 && drops == 0 && s.records == n &&
	    st.records_in == n && s.bytes == st.bytes_in,
	    "hot ring: every record arrives intact and in order (bad=%d, %llu dropped, %llu of %u)",
	    s.bad, (unsigned long long)drops, (unsigned long long)s.records, n);
	check(st.bytes_in > 2 * st.ring_size && rewinds > 0,
	    "hot ring: %llu bytes through a ring of %zu, rewound %llu times",
	    (unsigned long long)st.bytes_in, st.ring_size,
	    (unsigned long long)rewinds);
	check(resident <= npages / 4,
	    "hot ring: %zu of the ring's %zu pages were ever touched (at most a quarter)",
	    resident, npages);
	check(st.high_water < st.ring_size / 4,
	    "hot ring: the high-water mark, %zu bytes, is what waited, not where the producer wrote",
	    st.high_water);
	(void)pcapint_writer_stop(w);
	free(s.seen);
	free(dropped);
}

int
main(void)
{
	run("big ring", 1 << 22, 100000, 0, 0, 0, 0);
	run("blocking, slow consumer, hot ring", 1 << 22, 40000, 1, 0, 1, 0);
	run("flushes, hot ring", 1 << 22, 30000, 0, 1000, 0, 0);
	run("small ring", 1 << 13, 100000, 0, 0, 0, 0);
	run("slow consumer", 1 << 14, 40000, 1, 0, 0, 0);
	run("flushes", 1 << 15, 30000, 0, 1000, 0, 0);
	run("blocking, slow consumer", 1 << 13, 40000, 1, 0, 1, 0);
	run("blocking, flushes", 1 << 13, 30000, 0, 1000, 1, 0);
	run("nice +5", 1 << 16, 20000, 0, 0, 0, 5);
	run("nice +19, blocking", 1 << 13, 20000, 1, 0, 1, 19);
	error_case(0);
	error_case(1);
	hot_ring();
	start_errors();
	timed_waits();
	return (failures != 0);
}
