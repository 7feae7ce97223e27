/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * tcpdump's side of compressed savefiles and of the writer thread:
 * the options that go to libpcap's dumper options, and closing
 * savefiles.  Kept out of tcpdump.c, which only calls in here.
 *
 * Closing is where the writer thread matters.  Closing a dumper with a
 * writer thread waits until its ring is on disk, seconds behind a slow
 * disk; at a -C or -G rotation that would stop the capture for as long.
 * So a rotation hands the old dumper to libpcap's closing thread
 * (pcap_dump_close_async()) and capture goes on into the next file at
 * once; the -z command runs on the old file once it is complete, from
 * that thread, and its figures are added up there.  The last file is
 * closed here, after the earlier ones are complete, so the -z commands
 * run and the figures print in file order; -z runs on the last file too,
 * as a file that was never rotated away from is as finished as the
 * others.
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "netdissect-stdinc.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap.h>

#include "netdissect.h"
#include "dumpopts.h"

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
pcap_dump_options_t *dump_options;
#endif
volatile sig_atomic_t dumpopts_flush_requested;

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
static int compress_given;	/* --compress */
#endif
static int writer_given;	/* --writer-cpu or --writer-ring */
#ifdef HAVE_PCAP_DUMP_OPTIONS_SET_WRITER_THREAD
static int writer_cpu_given;	/* --writer-cpu */
static int writer_off;		/* --writer-ring=0 */
#endif
static int writer_on;		/* a writer thread, asked for or by default */

/*
 * How much nicer than the capture the writer thread runs.  Where the
 * two share a CPU, the capture must win: behind it is the kernel's
 * buffer, which drops packets when it overflows, behind the writer
 * only our ring, which absorbs a backlog.  At +5 the scheduler gives
 * the writer about a quarter of a CPU both want (CFS weights 335 to
 * 1024), and all of it when the capture sleeps; the writer needs a
 * share, as a starved writer fills the ring and drops as surely.
 */
#define	WRITER_NICE_INCR	5
static const char *prog = "tcpdump";
static pcap_dumper_t **current;	/* the dumper in use, for dumpopts_exit() */
static char **current_name;
static void (*zcmd)(const char *);	/* -z */
/*
 * Files handed to the closing thread and not yet complete.  Each keeps
 * its ring and the backlog in it, so without a bound a disk slower than
 * the rotations would let memory grow with every file; past this many
 * the capture waits for the oldest file, and the kernel's buffer, whose
 * drops are counted, takes the backlog instead.
 */
#define MAX_FILES_CLOSING	4
static u_int max_pending = MAX_FILES_CLOSING;

/*
 * What the files closed so far add up to.  With a writer thread, files
 * of rotations are finished on libpcap's closing thread, which alone
 * updates these until pcap_dump_close_async_wait() says it is done.
 */
static int dump_failed;
static int figures_printed;
#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
static struct pcap_dump_stats totals;
#endif

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
static int
options_create(char *ebuf)
{
	if (dump_options == NULL &&
	    (dump_options = pcap_dump_options_create(ebuf)) == NULL)
		return (-1);
	return (0);
}

/* --compress[=ALGO[:LEVEL]] */
int
dumpopts_compress(const char *arg, char *ebuf)
{
	if (options_create(ebuf) != 0)
		return (-1);
	compress_given = 1;
	return (pcap_dump_options_set_compression(dump_options, arg, ebuf));
}
#endif

#ifdef HAVE_PCAP_DUMP_OPTIONS_SET_WRITER_THREAD
/*
 * --writer-cpu=N (cpu != 0) pins a writer thread, --writer-ring=SIZE
 * [k|m|g] sets the size of its ring; either turns it on, and
 * --writer-ring=0 turns it off.  ebuf gets the whole message, the
 * option's name included.
 */
int
dumpopts_writer(int cpu, const char *arg, char *ebuf)
{
	const char *opt = cpu ? "--writer-cpu" : "--writer-ring";
	char msg[PCAP_ERRBUF_SIZE];
	unsigned long long v;
	char *end;
	int shift, r;

	if (options_create(ebuf) != 0)
		return (-1);
	writer_given = 1;
	if (cpu)
		writer_cpu_given = 1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	shift = 0;
	if (!cpu) {
		if (*end == 'k' || *end == 'K')
			shift = 10;
		else if (*end == 'm' || *end == 'M')
			shift = 20;
		else if (*end == 'g' || *end == 'G')
			shift = 30;
		if (shift != 0)
			end++;
	}
	if (*arg < '0' || *arg > '9' || *end != '\0' || errno != 0 ||
	    (cpu && v > INT_MAX) ||
	    (!cpu && v > (SIZE_MAX >> shift))) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE, cpu ?
		    "invalid CPU number \"%s\" for %s" :
		    "invalid ring size \"%s\" for %s (bytes, or k, m, g)",
		    arg, opt);
		return (-1);
	}
	if (cpu)
		r = pcap_dump_options_set_writer_cpu(dump_options, (int)v,
		    msg);
	else {
		writer_off = v == 0;
		r = pcap_dump_options_set_writer_thread(dump_options,
		    (size_t)v << shift, msg);
	}
	if (r != 0) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE, "%s: %.200s", opt, msg);
		return (-1);
	}
	return (0);
}
#endif

#ifdef HAVE_PCAP_DUMP_OPTIONS_SET_WRITER_THREAD
/*
 * The ring of a writer thread that tcpdump starts by default: libpcap's
 * default, PCAP_DUMP_WRITER_RING_DEFAULT (128 MiB), or a sixteenth of
 * the machine's memory if that is less, as a ring behind a slow disk
 * fills and stays resident, and tcpdump also runs on small boxes; but
 * not below 4 MiB, a few blocks of any codec.
 */
#define	DEFAULT_RING_MIN	((size_t)4 * 1024 * 1024)

static size_t
default_ring_size(void)
{
	size_t ring = PCAP_DUMP_WRITER_RING_DEFAULT;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages, page_size;
	uint64_t memory;

	pages = sysconf(_SC_PHYS_PAGES);
	page_size = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page_size > 0) {
		memory = (uint64_t)pages * (uint64_t)page_size;
		if (memory / 16 < ring)
			ring = (size_t)(memory / 16);
	}
#endif
	if (ring < DEFAULT_RING_MIN)
		ring = DEFAULT_RING_MIN;
	return (ring);
}

/*
 * A live capture to a savefile gets a writer thread unless told
 * otherwise (--writer-ring=0).  Measured in bench/ (2 CPUs, 2-second
 * bursts, medians of 3 runs, 2026-11-22): into a pipe drained at
 * 20 MB/s, random 1518-byte frames at 20,000 and 80,000 frames/s lost
 * 30.5% and 82.6% without it, 0% and 28.3% with it; to a file, 1518-
 * byte frames at 400,000 frames/s lost 7.6% without it, 0.04% with it.
 * What it costs is the copy into the ring, where the disk keeps up and
 * the CPUs are busy: random 1518-byte frames at 400,000 frames/s to a
 * file lost 0.00% without it and 0.25% with it.  A slow moment of the
 * disk loses far more than the copy costs, hence on by default.
 *
 * Not when reading savefiles: nothing overflows there if the disk is
 * slow, and the thread only adds the copy into its ring.  Not with -U
 * either: -U waits for every packet to be written, which leaves the
 * thread nothing to decouple.  Where libpcap cannot run the thread (no
 * pthreads), the dumper stays a plain one.
 */
static void
writer_by_default(void)
{
	char msg[PCAP_ERRBUF_SIZE];
	int created;

	created = dump_options == NULL;
	if (options_create(msg) != 0)
		return;
	if (pcap_dump_options_set_writer_thread(dump_options,
	    default_ring_size(), msg) == 0)
		writer_on = 1;
	else if (created) {
		pcap_dump_options_free(dump_options);
		dump_options = NULL;
	}
}
#endif

/*
 * After all the options: refuse what does not go together, and decide
 * whether there is a writer thread.  OFFLINE: packets come from
 * savefiles (-r, -V); PACKET_BUFFERED: -U.
 */
int
dumpopts_check(int have_w, int offline, int packet_buffered, char *ebuf)
{
#ifdef HAVE_PCAP_DUMP_OPTIONS_SET_WRITER_THREAD
	char msg[PCAP_ERRBUF_SIZE];

	if (writer_off && writer_cpu_given) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "--writer-cpu cannot be used with --writer-ring=0.");
		return (-1);
	}
	writer_on = writer_given && !writer_off;
	/* Without a thread or compression, the plain dumper stock has. */
	if (writer_off && !compress_given) {
		pcap_dump_options_free(dump_options);
		dump_options = NULL;
	}
	if (have_w && !writer_given && !offline && !packet_buffered)
		writer_by_default();
	/*
	 * Refused only where libpcap cannot do it (no per-thread nice
	 * value): the writer still works, at the capture's priority, and
	 * the user is told so.  A thread that fails to lower its priority
	 * on a system that has it fails the open, and tcpdump with it.
	 */
	if (have_w && writer_on &&
	    pcap_dump_options_set_writer_priority(dump_options,
	    WRITER_NICE_INCR, msg) != 0)
		fprintf(stderr,
		    "%s: warning: %.200s; the writer thread runs at the capture's priority\n",
		    prog, msg);
#endif
	if (have_w)
		return (0);
	if (writer_given) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "--writer-cpu and --writer-ring cannot be used without -w.");
		return (-1);
	}
	if (dump_options != NULL) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "--compress cannot be used without -w.");
		return (-1);
	}
	return (0);
}

void
dumpopts_setup(const char *program_name, pcap_dumper_t **pdd, char **name,
    void (*z)(const char *), int names_in_use)
{
	prog = program_name;
	current = pdd;
	current_name = name;
	zcmd = z;
	/*
	 * -C with -W reuses names: before a name comes round again, the
	 * file that had it must be complete, or opening it anew would
	 * truncate a file still being written.
	 */
	if (names_in_use > 0 && (u_int)names_in_use - 1 < max_pending)
		max_pending = (u_int)names_in_use - 1;
}

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
/*
 * The blocks of an adaptive dumper at each level; every file of a run
 * has the same ladder of levels, so they add up entry by entry.
 */
static void
add_levels(const struct pcap_dump_stats *st)
{
	int i;

	if (!st->adaptive)
		return;
	totals.adaptive = 1;
	totals.level_changes += st->level_changes;
	totals.blocks_at_store += st->blocks_at_store;
	totals.nlevels = st->nlevels;
	for (i = 0; i < st->nlevels && i < PCAP_DUMP_STATS_LEVELS; i++) {
		totals.levels[i] = st->levels[i];
		totals.blocks_at_level[i] += st->blocks_at_level[i];
	}
}

/*
 * "blocks at compression level -1: 12, 1: 300, 2: 159, stored: 3
 * (5 changes)": the levels an adaptive dumper wrote blocks at, the
 * blocks it stored because compressing did not pay, and how often it
 * changed level.
 */
static void
print_levels(void)
{
	const char *sep = "";
	int i;

	if (!totals.adaptive)
		return;
	fprintf(stderr, "blocks at compression level");
	for (i = 0; i < totals.nlevels; i++) {
		if (totals.blocks_at_level[i] == 0)
			continue;
		fprintf(stderr, "%s %d: %" PRIu64, sep, totals.levels[i],
		    totals.blocks_at_level[i]);
		sep = ",";
	}
	if (totals.blocks_at_store != 0)
		fprintf(stderr, "%s stored: %" PRIu64, sep,
		    totals.blocks_at_store);
	fprintf(stderr, " (%" PRIu64 " change%s)\n", totals.level_changes,
	    PLURAL_SUFFIX(totals.level_changes));
}
#endif

/*
 * Add up one complete file and report its error.  Runs on whichever
 * thread finished the file; see "totals".
 */
static void
file_done(const char *name, int status, const struct pcap_dump_stats *st,
    const char *errmsg)
{
#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
	if (st != NULL) {
		totals.records_written += st->records_written;
		totals.records_dropped += st->records_dropped;
		if (st->ring_high_water > totals.ring_high_water)
			totals.ring_high_water = st->ring_high_water;
		if (st->ring_size != 0)
			totals.ring_size = st->ring_size;
		add_levels(st);
	}
#endif
	if (status == 0)
		return;
	dump_failed = 1;
	if (st != NULL)
		fprintf(stderr, "%s: %s: %s (%" PRIu64 " packets lost)\n",
		    prog, name, errmsg != NULL ? errmsg : "write error",
		    st->records_lost);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, name,
		    errmsg != NULL ? errmsg : "write error");
}

/* Flush, take the figures, close, on this thread. */
static void
close_now(pcap_dumper_t *d, const char *name)
{
	const struct pcap_dump_stats *stp = NULL;
	const char *e = NULL;
	int status;
#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
	struct pcap_dump_stats st;
#endif

	status = pcap_dump_flush(d) == -1 ? -1 : 0;
#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
	memset(&st, 0, sizeof(st));
	if (pcap_dump_get_stats(d, &st, sizeof(st)) == 0)
		stp = &st;
	e = pcap_dump_geterr(d);
#endif
	file_done(name, status, stp, e);
	pcap_dump_close(d);
}

#ifdef HAVE_PCAP_DUMP_CLOSE_ASYNC
/* libpcap's closing thread calls this once a rotated file is complete. */
static void
rotated_done(void *user, int status, const struct pcap_dump_stats *st,
    const char *errmsg)
{
	char *name = user;

	file_done(name, status, st, errmsg);
	if (zcmd != NULL)
		zcmd(name);
	free(name);
}
#endif

static void
print_figures(void)
{
#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
	if (figures_printed)
		return;
	figures_printed = 1;
	print_levels();
	if (totals.ring_size == 0)
		return;
	fprintf(stderr, "%" PRIu64 " packet%s written\n",
	    totals.records_written, PLURAL_SUFFIX(totals.records_written));
	fprintf(stderr, "%" PRIu64 " packet%s dropped by writer (ring full)\n",
	    totals.records_dropped, PLURAL_SUFFIX(totals.records_dropped));
	fprintf(stderr, "ring high-water mark %" PRIu64 " of %" PRIu64 " bytes\n",
	    totals.ring_high_water, totals.ring_size);
#endif
}

int
dumpopts_close(pcap_dumper_t **pdd, const char *name, int last)
{
	pcap_dumper_t *d;
#ifdef HAVE_PCAP_DUMP_CLOSE_ASYNC
	char ebuf[PCAP_ERRBUF_SIZE];
	char *copy;
#endif

	d = *pdd;
	*pdd = NULL;
#ifdef HAVE_PCAP_DUMP_CLOSE_ASYNC
	if (d != NULL && !last && writer_on) {
		copy = strdup(name);
		if (copy != NULL &&
		    pcap_dump_close_async(d, rotated_done, copy, ebuf) == 0) {
			/* Not dump_failed: the closing thread may write it. */
			(void)pcap_dump_close_async_wait(max_pending);
			return (0);
		}
		free(copy);
		fprintf(stderr,
		    "%s: WARNING: closing %s on this thread: %s\n", prog, name,
		    copy == NULL ? "out of memory" : ebuf);
	}
	/* The earlier files first, and never two threads on "totals". */
	(void)pcap_dump_close_async_wait(0);
#endif
	if (d == NULL)
		return (dump_failed ? -1 : 0);
	close_now(d, name);
	if (zcmd != NULL)
		zcmd(name);
	if (last)
		print_figures();
	return (dump_failed ? -1 : 0);
}

/*
 * SIGUSR2 asks for a flush.  The handler only sets a flag: a flush takes
 * a lock and, with a writer thread, waits for it, neither of which a
 * signal handler may do, and the dumper it would use can be closed by a
 * rotation at any time.  The capture loop flushes the current dumper.
 */
void
dumpopts_flush_if_asked(pcap_dumper_t *d)
{
	if (!dumpopts_flush_requested)
		return;
	dumpopts_flush_requested = 0;
	if (d != NULL)
		(void)pcap_dump_flush(d);
}

/*
 * exit() neither closes a dumper nor waits for threads: a file that a
 * rotation handed over would lose what its ring still holds, and the
 * current one its last block, whenever tcpdump exits through error() or
 * the -W file limit.  Finish them.
 */
void
dumpopts_exit(void)
{
#ifdef HAVE_PCAP_DUMP_CLOSE_ASYNC
	(void)pcap_dump_close_async_wait(0);
#endif
	if (current != NULL && *current != NULL) {
		close_now(*current, current_name != NULL &&
		    *current_name != NULL ? *current_name : "savefile");
		*current = NULL;
	}
	print_figures();
}
