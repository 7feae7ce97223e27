/*
 * wdump-api -- the threaded dumper (pcap_dump_options_set_writer_thread)
 * through the public API.
 *
 *	wdump-api roundtrip FILE CODEC RING N
 *		N records of varying sizes (some handed over in odd pieces
 *		through fwrite(), as another caller of the FILE might),
 *		written through a writer thread with a ring of RING bytes,
 *		read back: byte-identical, in order; the statistics add
 *		up (records = written, nothing dropped or lost).
 *	wdump-api full CODEC
 *		the same into /dev/full: ENOSPC is sticky and reported
 *		by flush and pcap_dump_geterr(), and written + dropped +
 *		lost = records.
 *	wdump-api drops CODEC N
 *		a 64 KiB ring in front of a pipe nobody reads yet: some
 *		records are dropped, whole; then the pipe is drained and
 *		the stream read back holds exactly the records written,
 *		each intact, in order, and written + dropped = N.
 *	wdump-api errors
 *		bad ring sizes and CPUs are refused with a clear message.
 *	wdump-api async FILE CODEC K N
 *		K files of N records each, each closed with
 *		pcap_dump_close_async() as soon as the next is open: the
 *		callbacks come once per file, in order, each with status
 *		0 and N records written, and when
 *		pcap_dump_close_async_wait(0) returns every file reads
 *		back complete; a NULL dumper is refused.
 *	wdump-api threads FILE CODEC T K
 *		T threads at once, each opening, filling and closing K
 *		pairs of dumpers (one with options, with a writer thread
 *		every other time, and one plain), so that dumpers come and
 *		go in the registry of dumpers with options while the other
 *		threads' pcap_dump() calls look theirs up: every file
 *		reads back with its own records, complete, in order.
 *
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#define SNAP	2048

static int failed;

static void
check(int ok, const char *fmt, const char *what, long long a, long long b)
{
	if (!ok) {
		fprintf(stderr, "FAIL: ");
		fprintf(stderr, fmt, what, a, b);
		fputc('\n', stderr);
		__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
	}
}

/* Record i: its length and its bytes, a function of i alone. */
static size_t
rec_len(uint32_t i)
{
	return (60 + (i * 7919u) % (SNAP - 60));
}

static void
rec_fill(uint32_t i, u_char *buf, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		buf[k] = (u_char)(i * 31u + k * 7u + (k >> 8));
	memcpy(buf, &i, sizeof(i));
}

static void
rec_hdr(uint32_t i, struct pcap_pkthdr *h)
{
	h->ts.tv_sec = 1700000000 + i / 1000;
	h->ts.tv_usec = (i % 1000) * 1000;
	h->caplen = (bpf_u_int32)rec_len(i);
	h->len = h->caplen + 4;
}

/*
 * A dumper with CODEC and a writer thread with a RING-byte ring, on
 * the file named FILE or, if FILE is NULL, on the stream F.  A test
 * that cannot even open its dumper has nothing to say: exit.
 */
static pcap_dumper_t *
open_dumper(pcap_t *p, const char *codec, size_t ring, const char *file,
    FILE *f)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;
	pcap_dumper_t *d;

	o = pcap_dump_options_create(ebuf);
	if (o == NULL ||
	    pcap_dump_options_set_compression(o, codec, ebuf) != 0 ||
	    pcap_dump_options_set_writer_thread(o, ring, ebuf) != 0) {
		fprintf(stderr, "options: %s\n", ebuf);
		exit(1);
	}
	d = file != NULL ? pcap_dump_open_with_options(p, file, o) :
	    pcap_dump_fopen_with_options(p, f, o);
	if (d == NULL) {
		fprintf(stderr, "FAIL: open: %s\n", pcap_geterr(p));
		exit(1);
	}
	pcap_dump_options_free(o);
	return (d);
}

/*
 * pcap_dump() for most records; every 5th is written the way a caller
 * of fwrite() might split it: header in two parts, data in three.
 */
static void
push(pcap_dumper_t *d, uint32_t i)
{
	struct pcap_pkthdr h;
	struct {
		uint32_t sec, usec, caplen, len;
	} sh;
	u_char buf[SNAP];
	FILE *f;
	size_t len;

	rec_hdr(i, &h);
	len = h.caplen;
	rec_fill(i, buf, len);
	if (i % 5 != 4) {
		pcap_dump((u_char *)d, &h, buf);
		return;
	}
	sh.sec = (uint32_t)h.ts.tv_sec;
	sh.usec = (uint32_t)h.ts.tv_usec;
	sh.caplen = h.caplen;
	sh.len = h.len;
	f = pcap_dump_file(d);
	fwrite(&sh, 1, 5, f);
	fwrite((u_char *)&sh + 5, 1, sizeof(sh) - 5, f);
	fwrite(buf, 1, 1, f);
	fwrite(buf + 1, 1, len / 2, f);
	fwrite(buf + 1 + len / 2, 1, len - 1 - len / 2, f);
}

/*
 * Read FILE back: each record must be one of ours, intact; with
 * all set, records 0..n-1 in order, otherwise an increasing subset.
 * Returns the number of records, or -1.
 */
static long long
readback(const char *file, uint32_t n, int all)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h, want;
	const u_char *data;
	u_char buf[SNAP];
	pcap_t *p;
	long long count;
	uint32_t i, next;
	int r;

	p = pcap_open_offline(file, ebuf);
	if (p == NULL) {
		fprintf(stderr, "FAIL: read %s: %s\n", file, ebuf);
		return (-1);
	}
	count = 0;
	next = 0;
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		if (h->caplen < 4) {
			fprintf(stderr, "FAIL: record %lld too short\n", count);
			count = -1;
			break;
		}
		memcpy(&i, data, sizeof(i));
		rec_hdr(i, &want);
		rec_fill(i, buf, rec_len(i));
		if (i >= n || i < next || (all && i != next) ||
		    h->caplen != want.caplen || h->len != want.len ||
		    h->ts.tv_sec != want.ts.tv_sec ||
		    h->ts.tv_usec != want.ts.tv_usec ||
		    memcmp(data, buf, h->caplen) != 0) {
			fprintf(stderr,
			    "FAIL: record %lld (id %u, expected %s%u) differs\n",
			    count, i, all ? "" : ">= ", next);
			count = -1;
			break;
		}
		next = i + 1;
		count++;
	}
	if (r == -1) {
		fprintf(stderr, "FAIL: read %s: %s\n", file, pcap_geterr(p));
		count = -1;
	}
	pcap_close(p);
	return (count);
}

static int
roundtrip(const char *file, const char *codec, size_t ring, uint32_t n)
{
	struct pcap_dump_stats st;
	pcap_dumper_t *d;
	pcap_t *p;
	uint32_t i;
	long long got;

	p = pcap_open_dead(DLT_EN10MB, SNAP);
	d = open_dumper(p, codec, ring, file, NULL);
	for (i = 0; i < n; i++) {
		push(d, i);
		/*
		 * A small ring fills faster than the writer empties it;
		 * this test wants every record, so wait now and then.
		 */
		if (i % 16 == 15) {
			check(pcap_dump_flush(d) == 0, "%s: %lld %lld",
			    "flush", 0, 0);
			/* On disk, even blocks compressed in parallel. */
			check(pcap_dump_get_stats(d, &st, sizeof(st)) == 0 &&
			    st.records_written == i + 1, "%s: %lld of %lld",
			    "written after a flush",
			    (long long)st.records_written, (long long)i + 1);
		}
	}
	check(pcap_dump_flush(d) == 0, "%s %lld %lld", "final flush", 0, 0);
	memset(&st, 0, sizeof(st));
	check(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "%s %lld %lld",
	    "get_stats", 0, 0);
	check(st.records == n, "%s: %lld != %lld", "records", (long long)st.records, n);
	check(st.records_written == n, "%s: %lld != %lld", "written",
	    (long long)st.records_written, n);
	check(st.records_dropped == 0 && st.records_lost == 0 && st.error == 0,
	    "%s: dropped %lld lost %lld", "nothing dropped or lost",
	    (long long)st.records_dropped, (long long)st.records_lost);
	check(st.ring_size >= ring && st.ring_size < 2 * ring,
	    "%s: %lld for %lld", "ring size", (long long)st.ring_size, (long long)ring);
	check(st.ring_high_water > 0 && st.ring_high_water <= st.ring_size,
	    "%s: %lld of %lld", "high-water mark", (long long)st.ring_high_water,
	    (long long)st.ring_size);
	check(pcap_dump_ftell64(d) == (int64_t)st.bytes_out, "%s: %lld != %lld",
	    "ftell64 = bytes on disk", (long long)pcap_dump_ftell64(d),
	    (long long)st.bytes_out);
	pcap_dump_close(d);
	pcap_close(p);
	got = readback(file, n, 1);
	check(got == n, "%s: %lld of %lld records", "read back", got, n);
	return (failed);
}

static int
full(const char *codec)
{
	struct pcap_dump_stats st;
	pcap_dumper_t *d;
	const char *e;
	pcap_t *p;
	uint32_t i, n = 3000;

	p = pcap_open_dead(DLT_EN10MB, SNAP);
	d = open_dumper(p, codec, 1 << 20, "/dev/full", NULL);
	for (i = 0; i < n; i++)
		push(d, i);
	check(pcap_dump_flush(d) == -1, "%s %lld %lld", "flush fails", 0, 0);
	e = pcap_dump_geterr(d);
	check(e != NULL && strstr(e, "No space left on device") != NULL,
	    "%s: %s%lld%lld", "geterr says ENOSPC", 0, 0);
	check(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "%s %lld %lld",
	    "get_stats", 0, 0);
	check(st.error == ENOSPC, "%s: %lld, expected %lld", "error", st.error, ENOSPC);
	check(st.records == n, "%s: %lld != %lld", "records", (long long)st.records, n);
	check(st.records_written + st.records_dropped + st.records_lost == n,
	    "%s: written + dropped + lost = %lld, expected %lld",
	    "counts add up", (long long)(st.records_written +
	    st.records_dropped + st.records_lost), n);
	check(st.records_lost > 0, "%s: %lld %lld", "records lost", (long long)st.records_lost, 0);
	check(!ferror(pcap_dump_file(d)), "%s %lld %lld",
	    "FILE error flag stays clear", 0, 0);
	pcap_dump_close(d);
	pcap_close(p);
	return (failed);
}

struct drain {
	int	fd;
	FILE	*out;
	long long bytes;
};

static void *
drain_main(void *arg)
{
	struct drain *dr = arg;
	char buf[65536];
	ssize_t n;

	while ((n = read(dr->fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)n, dr->out);
		dr->bytes += n;
	}
	return (NULL);
}

static int
drops(const char *file, const char *codec, uint32_t n)
{
	struct pcap_dump_stats st;
	pcap_dumper_t *d;
	struct drain dr;
	pthread_t t;
	pcap_t *p;
	FILE *wf;
	int fds[2];
	uint32_t i;
	long long got;

	if (pipe(fds) != 0) {
		perror("pipe");
		return (1);
	}
	p = pcap_open_dead(DLT_EN10MB, SNAP);
	wf = fdopen(fds[1], "wb");
	d = open_dumper(p, codec, 65536, NULL, wf);
	/* Nobody reads yet: the pipe and then the ring fill up. */
	for (i = 0; i < n; i++)
		push(d, i);
	check(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "%s %lld %lld",
	    "get_stats", 0, 0);
	check(st.records_dropped > 0, "%s: %lld of %lld", "records dropped",
	    (long long)st.records_dropped, n);
	check(st.ring_high_water > st.ring_size / 2, "%s: %lld of %lld",
	    "ring high-water mark", (long long)st.ring_high_water,
	    (long long)st.ring_size);
	dr.fd = fds[0];
	dr.out = fopen(file, "wb");
	dr.bytes = 0;
	if (dr.out == NULL) {
		perror(file);
		return (1);
	}
	pthread_create(&t, NULL, drain_main, &dr);
	check(pcap_dump_flush(d) == 0, "%s %lld %lld", "flush", 0, 0);
	check(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "%s %lld %lld",
	    "get_stats", 0, 0);
	check(st.records == n, "%s: %lld != %lld", "records", (long long)st.records, n);
	check(st.records_written + st.records_dropped == n,
	    "%s: written + dropped = %lld, expected %lld", "counts add up",
	    (long long)(st.records_written + st.records_dropped), n);
	check(st.records_lost == 0 && st.error == 0, "%s: lost %lld error %lld",
	    "nothing lost", (long long)st.records_lost, st.error);
	pcap_dump_close(d);	/* closes the pipe: the drain ends */
	pthread_join(t, NULL);
	fclose(dr.out);
	pcap_close(p);
	got = readback(file, n, 0);
	check(got == (long long)st.records_written, "%s: %lld, written %lld",
	    "records read back", got, (long long)st.records_written);
	printf("%llu written, %llu dropped\n",
	    (unsigned long long)st.records_written,
	    (unsigned long long)st.records_dropped);
	return (failed);
}

static int
errors(void)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;

	o = pcap_dump_options_create(ebuf);
	ebuf[0] = '\0';
	check(pcap_dump_options_set_writer_thread(o, 4096, ebuf) == PCAP_ERROR &&
	    strstr(ebuf, "out of range") != NULL, "%s: \"%s\"%lld",
	    "4 KiB ring refused", 0, 0);
	if (failed)
		fprintf(stderr, "  said: %s\n", ebuf);
	ebuf[0] = '\0';
	check(pcap_dump_options_set_writer_cpu(o, 99999, ebuf) == PCAP_ERROR &&
	    strstr(ebuf, "CPU 99999") != NULL, "%s %lld %lld",
	    "CPU 99999 refused", 0, 0);
	ebuf[0] = '\0';
	check(pcap_dump_options_set_writer_cpu(o, -5, ebuf) == PCAP_ERROR,
	    "%s %lld %lld", "CPU -5 refused", 0, 0);
	check(pcap_dump_options_set_writer_thread(o, 0, ebuf) == 0 &&
	    pcap_dump_options_set_writer_thread(o, 1 << 20, ebuf) == 0 &&
	    pcap_dump_options_set_writer_cpu(o, 0, ebuf) == 0 &&
	    pcap_dump_options_set_writer_cpu(o, -1, ebuf) == 0,
	    "%s %lld %lld", "valid settings accepted", 0, 0);
	check(pcap_dump_options_set_writer_thread(NULL, 1 << 20, ebuf) ==
	    PCAP_ERROR, "%s %lld %lld", "NULL options refused", 0, 0);
	ebuf[0] = '\0';
	check(pcap_dump_options_set_writer_priority(o, -1, ebuf) ==
	    PCAP_ERROR && strstr(ebuf, "decrease -1 is out of range") != NULL,
	    "%s %lld %lld", "raising the writer's priority refused", 0, 0);
	ebuf[0] = '\0';
	check(pcap_dump_options_set_writer_priority(o, 20, ebuf) ==
	    PCAP_ERROR && strstr(ebuf, "decrease 20 is out of range") != NULL,
	    "%s %lld %lld", "a priority decrease past 19 refused", 0, 0);
	pcap_dump_options_free(o);
	return (failed);
}

#define ASYNC_MAX	16

static struct {
	pthread_mutex_t lock;
	int	calls;
	int	order[ASYNC_MAX];
	int	status[ASYNC_MAX];
	long long written[ASYNC_MAX];
} done_log = { PTHREAD_MUTEX_INITIALIZER, 0, { 0 }, { 0 }, { 0 } };
static int file_ids[ASYNC_MAX];

static void
file_closed(void *user, int status, const struct pcap_dump_stats *st,
    const char *errmsg)
{
	int k = *(int *)user;

	(void)errmsg;
	pthread_mutex_lock(&done_log.lock);
	if (done_log.calls < ASYNC_MAX) {
		done_log.order[done_log.calls] = k;
		done_log.status[done_log.calls] = status;
		done_log.written[done_log.calls] =
		    st != NULL ? (long long)st->records_written : -1;
	}
	done_log.calls++;
	pthread_mutex_unlock(&done_log.lock);
}

static int
async(const char *file, const char *codec, int k, uint32_t n)
{
	char ebuf[PCAP_ERRBUF_SIZE], name[4096];
	pcap_dumper_t *d;
	pcap_t *p;
	uint32_t i;
	int f;

	if (k < 1 || k > ASYNC_MAX) {
		fprintf(stderr, "async: 1..%d files\n", ASYNC_MAX);
		return (1);
	}
	check(pcap_dump_close_async(NULL, file_closed, NULL, ebuf) ==
	    PCAP_ERROR && strcmp(ebuf, "NULL dumper") == 0,
	    "%s %lld %lld", "a NULL dumper is refused", 0, 0);
	p = pcap_open_dead(DLT_EN10MB, SNAP);
	for (f = 0; f < k; f++) {
		snprintf(name, sizeof(name), "%s.%d", file, f);
		/* A ring that holds all of a file: nothing is dropped. */
		d = open_dumper(p, codec, (size_t)4 << 20, name, NULL);
		for (i = 0; i < n; i++)
			push(d, i);
		file_ids[f] = f;
		if (pcap_dump_close_async(d, file_closed, &file_ids[f],
		    ebuf) != 0) {
			fprintf(stderr, "FAIL: close_async: %s\n", ebuf);
			return (1);
		}
	}
	check(pcap_dump_close_async_wait(0) == 0, "%s %lld %lld",
	    "nothing pending after wait(0)", 0, 0);
	pthread_mutex_lock(&done_log.lock);
	check(done_log.calls == k, "%s: %lld, expected %lld", "callbacks",
	    done_log.calls, k);
	for (f = 0; f < k && f < done_log.calls; f++) {
		check(done_log.order[f] == f, "%s: %lld, expected %lld",
		    "callback order", done_log.order[f], f);
		check(done_log.status[f] == 0, "%s: %lld for file %lld",
		    "status", done_log.status[f], f);
		check(done_log.written[f] == (long long)n,
		    "%s: %lld, expected %lld", "records written",
		    done_log.written[f], n);
	}
	pthread_mutex_unlock(&done_log.lock);
	for (f = 0; f < k; f++) {
		snprintf(name, sizeof(name), "%s.%d", file, f);
		check(readback(name, n, 1) == (long long)n,
		    "%s: file %lld of %lld incomplete", "read back", f, k);
	}
	pcap_close(p);
	return (failed);
}

struct worker {
	pthread_t t;
	const char *file;
	const char *codec;
	int id;
	int k;
};

#define THREAD_RECORDS	500

static void *
worker_main(void *arg)
{
	char name[2][1024];
	struct worker *w = arg;
	pcap_dumper_t *d[2];
	pcap_t *p;
	uint32_t i;
	long long got;
	int j, k;

	p = pcap_open_dead(DLT_EN10MB, SNAP);
	for (k = 0; k < w->k; k++) {
		for (j = 0; j < 2; j++)
			snprintf(name[j], sizeof(name[j]), "%s.%d.%d.%d",
			    w->file, w->id, k, j);
		d[0] = open_dumper(p, w->codec, k % 2 == 0 ? 0 : 65536,
		    name[0], NULL);
		d[1] = pcap_dump_open(p, name[1]);
		if (d[1] == NULL) {
			fprintf(stderr, "FAIL: open: %s\n", pcap_geterr(p));
			exit(1);
		}
		for (i = 0; i < THREAD_RECORDS; i++) {
			push(d[0], i);
			push(d[1], i);
			/* A writer thread's ring drops what it cannot hold. */
			if (i % 16 == 15)
				check(pcap_dump_flush(d[0]) == 0, "%s: %lld %lld",
				    "flush", 0, 0);
		}
		pcap_dump_close(d[0]);
		pcap_dump_close(d[1]);
		for (j = 0; j < 2; j++) {
			got = readback(name[j], THREAD_RECORDS, 1);
			check(got == THREAD_RECORDS, "%s: %lld of %lld records",
			    name[j], got, THREAD_RECORDS);
		}
	}
	pcap_close(p);
	return (NULL);
}

static int
threads(const char *file, const char *codec, int nthreads, int k)
{
	struct worker w[8];
	int i;

	if (nthreads < 1 || nthreads > 8) {
		fprintf(stderr, "threads: 1 to 8\n");
		return (2);
	}
	for (i = 0; i < nthreads; i++) {
		w[i].file = file;
		w[i].codec = codec;
		w[i].id = i;
		w[i].k = k;
		if (pthread_create(&w[i].t, NULL, worker_main, &w[i]) != 0) {
			fprintf(stderr, "FAIL: pthread_create\n");
			exit(1);
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(w[i].t, NULL);
	return (failed);
}

int
main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "roundtrip") == 0)
		return (roundtrip(argv[2], argv[3],
		    (size_t)strtoull(argv[4], NULL, 0),
		    (uint32_t)strtoul(argv[5], NULL, 0)));
	if (argc == 3 && strcmp(argv[1], "full") == 0)
		return (full(argv[2]));
	if (argc == 5 && strcmp(argv[1], "drops") == 0)
		return (drops(argv[2], argv[3],
		    (uint32_t)strtoul(argv[4], NULL, 0)));
	if (argc == 2 && strcmp(argv[1], "errors") == 0)
		return (errors());
	if (argc == 6 && strcmp(argv[1], "async") == 0)
		return (async(argv[2], argv[3], atoi(argv[4]),
		    (uint32_t)strtoul(argv[5], NULL, 0)));
	if (argc == 6 && strcmp(argv[1], "threads") == 0)
		return (threads(argv[2], argv[3], atoi(argv[4]),
		    atoi(argv[5])));
	fprintf(stderr, "usage: wdump-api roundtrip FILE CODEC RING N | full CODEC | drops FILE CODEC N | errors | async FILE CODEC K N | threads FILE CODEC T K\n");
	return (2);
}
