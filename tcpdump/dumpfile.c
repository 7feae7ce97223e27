/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *
 *   1. Redistributions of source code must retain the above copyright
 *      notice, this list of conditions and the following disclaimer.
 *   2. Redistributions in binary form must reproduce the above copyright
 *      notice, this list of conditions and the following disclaimer in the
 *      documentation and/or other materials provided with the distribution.
 *   3. Neither the name of the copyright holders nor the names of its
 *      contributors may be used to endorse or promote products derived
 *      from this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
 * ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
 * LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
 * A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
 * OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
 * SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
 * LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 *
 * Opening, flushing and closing tcpdump's savefiles, with the options
 * of dumpopts.c.  Kept out of tcpdump.c, which only calls in here.
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

#include <config.h>

#include "netdissect-stdinc.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include <pcap.h>

#include "netdissect.h"
#include "interface.h"
#include "dumpopts.h"
#include "dumpfile.h"

volatile sig_atomic_t dumpfile_flush_requested;

static pcap_dumper_t **current;	/* the dumper in use, for dumpfile_exit() */
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

/*
 * A full disk is an episode: libpcap loses the blocks that find no
 * space and writes again once there is some (pcap_dump_get_stats(3PCAP)).
 * The capture thread looks every SPACE_CHECK_EVERY packets, which costs
 * little, and says so on the standard error when it happens; the
 * figures at the end list the episodes.
 */
#define SPACE_CHECK_EVERY	256
static u_int packets_unchecked;

/*
 * --disk-budget: this run's savefiles are kept within a number of bytes
 * by deleting the oldest of them.  At each rotation, once the old file
 * is handed over, the files closed so far are summed (stat(2)), with
 * room for the next: the -C size, or the largest file so far if that
 * is more; the oldest go while that is over the budget.  Only complete
 * files go: the last max_pending handed to the closing thread may still
 * be written.  The capture thread alone uses these.
 */
static uint64_t budget;			/* bytes; 0: none */
static u_int ring_names;		/* -C -W: names in the ring; 0: none */
static uint64_t space_budget;		/* what fitted when the disk filled */
static int64_t budget_file_size;	/* -C's size, or 0 */
struct budget_file {
	char	*name;
	uint64_t handed;	/* pcap_dump_ftell64() when handed over */
};
static struct budget_file *budget_files; /* closed files, the oldest first */
static u_int budget_nfiles, budget_alloc;
static u_int budget_deleted;
static u_int deleted_for_space;

static void budget_drop(const char *);

/*
 * The times at which writing stopped and resumed, for the figures at
 * the end; the capture thread alone uses these.  A stop that began and
 * ended between two looks has only the time it was seen at.
 */
#define STOPS_LISTED	10
struct stops {
	u_int count;
	time_t stopped[STOPS_LISTED];
	time_t resumed[STOPS_LISTED];	/* 0: not (yet) */
	u_char ended_unseen[STOPS_LISTED];
};

/*
 * A file that a rotation cannot open, for a reason that may pass (a
 * file system remounted read-only, an I/O error, no space or no inode
 * for a new file), does not end the capture: while there is no file,
 * packets are counted as lost, and opening it is tried again as they
 * arrive, at most once a second.  errno is kept from the failed open;
 * libpcap's message says the same in words.
 */
static int open_errno;
static int no_file;		/* 1 from a failed open until one succeeds */
static time_t next_open_try;
static uint64_t packets_without_file;
static struct stops open_stops;

static void
stop_begins(struct stops *s)
{
	if (s->count < STOPS_LISTED)
		s->stopped[s->count] = time(NULL);
	s->count++;
}

static void
stop_ends(struct stops *s)
{
	if (s->count <= STOPS_LISTED)
		s->resumed[s->count - 1] = time(NULL);
}

/*
 * "3 stops for lack of space (12:00:01 for 5 s, ended by 12:02:10,
 * 12:03:00 until the end)": when writing stopped, and for how long.
 */
static void
print_stops(const struct stops *s, const char *why)
{
	char when[sizeof("00:00:00")];
	u_int i;

	if (s->count == 0)
		return;
	fprintf(stderr, "%u stop%s %s (", s->count, PLURAL_SUFFIX(s->count),
	    why);
	for (i = 0; i < s->count && i < STOPS_LISTED; i++) {
		strftime(when, sizeof(when), "%H:%M:%S",
		    localtime(&s->stopped[i]));
		fprintf(stderr, "%s%s%s", i > 0 ? ", " : "",
		    s->ended_unseen[i] ? "ended by " : "", when);
		if (s->ended_unseen[i])
			continue;
		if (s->resumed[i] != 0)
			fprintf(stderr, " for %.0f s",
			    difftime(s->resumed[i], s->stopped[i]));
		else
			fprintf(stderr, " until the end");
	}
	fprintf(stderr, "%s)\n", s->count > STOPS_LISTED ? ", ..." : "");
}

/* The packets that found no file open, for the figures at the end. */
static void
print_no_file(void)
{
	print_stops(&open_stops, "with no file open");
	if (packets_without_file != 0)
		fprintf(stderr, "%" PRIu64 " packet%s lost while no file could be opened\n",
		    packets_without_file, PLURAL_SUFFIX(packets_without_file));
}

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
static struct pcap_dump_stats totals;

/* The stops for lack of space. */
static u_int files_opened;
static u_int stopped_file;	/* files_opened when writing stopped, or 0 */
static uint64_t written_at_stop;	/* records written to that file */
static struct stops space_stops;
static uint64_t lost_at_room;	/* records_lost when make_room() last ran */
static u_int watched_file;	/* files_opened of the file looked at last */
static uint64_t stops_seen;	/* its stops already told */
static int stop_carried;	/* it opened during a stop, not yet seen in it */

static void wait_if_closing(const char *);

pcap_dumper_t *
dumpfile_open(pcap_t *p, const char *name)
{
	pcap_dumper_t *d;

	wait_if_closing(name);
	files_opened++;
	errno = 0;
	d = pcap_dump_open_with_options(p, name, dumpopts_options);
	if (d == NULL)
		open_errno = errno;
	else
		budget_drop(name);
	return (d);
}

pcap_dumper_t *
dumpfile_fopen(pcap_t *p, FILE *fp)
{
	pcap_dumper_t *d;

	files_opened++;
	d = pcap_dump_fopen_with_options(p, fp, dumpopts_options);
	if (d != NULL && current_name != NULL && *current_name != NULL)
		budget_drop(*current_name);
	return (d);
}

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

static void
add_figures(const struct pcap_dump_stats *st)
{
	totals.records_written += st->records_written;
	totals.records_dropped += st->records_dropped;
	totals.records_lost += st->records_lost;
	if (st->ring_high_water > totals.ring_high_water)
		totals.ring_high_water = st->ring_high_water;
	if (st->ring_size != 0)
		totals.ring_size = st->ring_size;
	add_levels(st);
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

/* The packets lost to write errors, full disks included. */
static void
print_losses(void)
{
	print_stops(&space_stops, "for lack of space");
	if (totals.records_lost != 0)
		fprintf(stderr, "%" PRIu64 " packet%s lost to write errors\n",
		    totals.records_lost, PLURAL_SUFFIX(totals.records_lost));
}

static void
print_figures(void)
{
	if (figures_printed)
		return;
	figures_printed = 1;
	print_levels();
	print_no_file();
	print_losses();
	if (totals.ring_size == 0)
		return;
	fprintf(stderr, "%" PRIu64 " packet%s written\n",
	    totals.records_written, PLURAL_SUFFIX(totals.records_written));
	fprintf(stderr, "%" PRIu64 " packet%s dropped by writer (ring full)\n",
	    totals.records_dropped, PLURAL_SUFFIX(totals.records_dropped));
	fprintf(stderr, "ring high-water mark %" PRIu64 " of %" PRIu64 " bytes\n",
	    totals.ring_high_water, totals.ring_size);
}

/* The figures of the dumper d, or NULL if it has none. */
static const struct pcap_dump_stats *
get_figures(pcap_dumper_t *d, struct pcap_dump_stats *st, const char **errmsg)
{
	memset(st, 0, sizeof(*st));
	*errmsg = pcap_dump_geterr(d);
	return (pcap_dump_get_stats(d, st, sizeof(*st)) == 0 ? st : NULL);
}

#else /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */

/*
 * A libpcap without dumper options: plain dumpers, and no figures; the
 * one field file_done() reads stands for libpcap's structure.
 */
struct pcap_dump_stats {
	uint64_t records_lost;
};

pcap_dumper_t *
dumpfile_open(pcap_t *p, const char *name)
{
	pcap_dumper_t *d;

	errno = 0;
	d = pcap_dump_open(p, name);
	if (d == NULL)
		open_errno = errno;
	else
		budget_drop(name);
	return (d);
}

pcap_dumper_t *
dumpfile_fopen(pcap_t *p, FILE *fp)
{
	pcap_dumper_t *d;

	d = pcap_dump_fopen(p, fp);
	if (d != NULL && current_name != NULL && *current_name != NULL)
		budget_drop(*current_name);
	return (d);
}

static void
add_figures(const struct pcap_dump_stats *st _U_)
{
}

static void
print_figures(void)
{
	if (figures_printed)
		return;
	figures_printed = 1;
	print_no_file();
}

static const struct pcap_dump_stats *
get_figures(pcap_dumper_t *d _U_, struct pcap_dump_stats *st _U_,
    const char **errmsg)
{
	*errmsg = NULL;
	return (NULL);
}

#endif /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */

void
dumpfile_setup(pcap_dumper_t **pdd, char **name, void (*z)(const char *),
    int names_in_use)
{
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
	if (names_in_use > 0)
		ring_names = (u_int)names_in_use;
}

/*
 * Add up one complete file and report its error.  Runs on whichever
 * thread finished the file; see "totals".
 */
static void
file_done(const char *name, int status, const struct pcap_dump_stats *st,
    const char *errmsg)
{
	if (st != NULL)
		add_figures(st);
	/* Packets lost while the disk was full fail the run too. */
	if (st != NULL && st->records_lost != 0)
		dump_failed = 1;
	if (status == 0)
		return;
	dump_failed = 1;
	if (st != NULL)
		fprintf(stderr, "%s: %s: %s (%" PRIu64 " packets lost)\n",
		    program_name, name,
		    errmsg != NULL ? errmsg : "write error", st->records_lost);
	else
		fprintf(stderr, "%s: %s: %s\n", program_name, name,
		    errmsg != NULL ? errmsg : "write error");
}

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
static void make_room(int64_t, int);

static void
stop_ended_unseen(struct stops *s)
{
	if (s->count < STOPS_LISTED)
		s->ended_unseen[s->count] = 1;
	stop_begins(s);
}

/*
 * Writing to d, the current file, has stopped for lack of space, or has
 * resumed: say so now.  libpcap counts each file's stops, so a stop
 * that began and ended between two looks is said when it is seen.  A
 * file that a rotation opened during a stop has resumed once it has a
 * record; its first stop is taken to be that stop going on, as a file
 * opened on a full disk finds no space for its first block.  The one
 * case its figures tell apart is a file that has written records and
 * is in its only stop: that stop began after writing resumed.
 */
static void
watch_space(pcap_dumper_t *d, const char *name, int writing_on)
{
	struct pcap_dump_stats st;
	uint64_t began, unseen, i;
	int stop_began = 0;

	memset(&st, 0, sizeof(st));
	if (pcap_dump_get_stats(d, &st, sizeof(st)) != 0)
		return;
	if (watched_file != files_opened) {
		watched_file = files_opened;
		stops_seen = 0;
		stop_carried = stopped_file != 0;
	}
	if (stop_carried && (st.space_stops != 0 || st.records_written != 0)) {
		stop_carried = 0;
		if (st.space_stops != 0 && !(st.space_stops == 1 &&
		    st.space_error != 0 && st.records_written != 0))
			stops_seen = 1;
	}
	/*
	 * libpcap sets the error before it counts the stop: a stop not
	 * counted yet is seen at the next look.
	 */
	began = st.space_stops - stops_seen;
	if (stopped_file == 0 && st.space_error != 0 && began == 0)
		return;
	stops_seen = st.space_stops;
	if (stopped_file != 0 && (began != 0 || (st.space_error == 0 &&
	    st.records_written >
	    (stopped_file == files_opened ? written_at_stop : 0)))) {
		stopped_file = 0;
		stop_ends(&space_stops);
		fprintf(stderr, "%s: %s: writing again\n", program_name, name);
	}
	if (stopped_file == 0) {
		/* All but a stop still going on began and ended unseen. */
		unseen = began - (st.space_error != 0 ? 1 : 0);
		for (i = 0; i < unseen; i++)
			stop_ended_unseen(&space_stops);
		if (unseen == 1)
			fprintf(stderr, "%s: %s: writing stopped for lack of space and has resumed; packets were lost meanwhile\n",
			    program_name, name);
		else if (unseen > 1)
			fprintf(stderr, "%s: %s: writing stopped for lack of space %" PRIu64 " times and has resumed; packets were lost meanwhile\n",
			    program_name, name, unseen);
	}
	if (stopped_file == 0 && st.space_error != 0) {
		stopped_file = files_opened;
		written_at_stop = st.records_written;
		stop_began = 1;
		stop_begins(&space_stops);
		fprintf(stderr, "%s: %s: %s; packets are lost until there is space\n",
		    program_name, name, strerror(st.space_error));
	}
	/* A file at a time, each after a block that found no space. */
	if (writing_on && st.space_error != 0 &&
	    st.records_lost != lost_at_room) {
		lost_at_room = st.records_lost;
		/* What the disk holds, not what was handed to the file. */
		make_room((int64_t)st.bytes_out, stop_began);
	}
}
#else
static void
watch_space(pcap_dumper_t *d _U_, const char *name _U_, int writing_on _U_)
{
}
#endif /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */

/* Flush, take the figures, close, on this thread. */
static void
close_now(pcap_dumper_t *d, const char *name)
{
	struct pcap_dump_stats st;
	const struct pcap_dump_stats *stp;
	const char *errmsg;
	int status;

	status = pcap_dump_flush(d) == -1 ? -1 : 0;
	/* A stop for lack of space that lasts to the end is said too. */
	watch_space(d, name, 0);
	stp = get_figures(d, &st, &errmsg);
	file_done(name, status, stp, errmsg);
	pcap_dump_close(d);
}

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
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

/*
 * The names of the last files handed to the closing thread, the newest
 * at closing_next - 1, any of which may still be written: a rotation
 * that opens one of them again (-G with a name that does not change
 * from one interval to the next) waits until that file is complete, as
 * opening it would truncate it.  Out of memory, the wait is at once.
 */
static char *closing_names[MAX_FILES_CLOSING];
static u_int closing_next;

static void
remember_closing(const char *name)
{
	free(closing_names[closing_next]);
	closing_names[closing_next] = strdup(name);
	if (closing_names[closing_next] == NULL)
		(void)pcap_dump_close_async_wait(0);
	closing_next = (closing_next + 1) % MAX_FILES_CLOSING;
}

/* Files close in order: once at most "newer" are left, it is done. */
static void
wait_if_closing(const char *name)
{
	u_int newer, i;

	for (newer = 0; newer < MAX_FILES_CLOSING; newer++) {
		i = (closing_next + 2 * MAX_FILES_CLOSING - 1 - newer) %
		    MAX_FILES_CLOSING;
		if (closing_names[i] != NULL &&
		    strcmp(closing_names[i], name) == 0) {
			(void)pcap_dump_close_async_wait(newer);
			return;
		}
	}
}

/*
 * At a rotation, with a writer thread: hand the dumper to libpcap's
 * closing thread.  0 if it took it, -1 if this thread must close it
 * (no writer thread, or, with a warning, the closing thread failed).
 */
static int
close_in_background(pcap_dumper_t *d, const char *name)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	char *copy;

	if (!dumpopts_writer_on)
		return (-1);
	copy = strdup(name);
	if (copy != NULL &&
	    pcap_dump_close_async(d, rotated_done, copy, ebuf) == 0) {
		remember_closing(name);
		(void)pcap_dump_close_async_wait(max_pending);
		return (0);
	}
	free(copy);
	fprintf(stderr, "%s: WARNING: closing %s on this thread: %s\n",
	    program_name, name, copy == NULL ? "out of memory" : ebuf);
	return (-1);
}

/* The files handed to the closing thread are complete. */
static void
wait_for_background(void)
{
	(void)pcap_dump_close_async_wait(0);
}

/* At most n files handed to the closing thread are not complete. */
static void
wait_until_pending(u_int n)
{
	(void)pcap_dump_close_async_wait(n);
}

/*
 * Where d's stream has reached: for a file not compressed, its size
 * once the writer thread has caught up (the bytes on disk for one that
 * is compressed).
 */
static int64_t
stream_end(pcap_dumper_t *d)
{
	return (pcap_dump_ftell64(d));
}
#else
static int
close_in_background(pcap_dumper_t *d _U_, const char *name _U_)
{
	return (-1);
}

static void
wait_for_background(void)
{
}

static void
wait_until_pending(u_int n _U_)
{
}

/* Without a writer thread a file is complete once closed. */
static int64_t
stream_end(pcap_dumper_t *d _U_)
{
	return (0);
}
#endif /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */

int
dumpfile_budget(const char *arg, int64_t file_size, char *ebuf)
{
	if (dumpopts_parse_size(arg, UINT64_MAX, &budget) != 0 ||
	    budget == 0) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "invalid disk budget \"%s\" for --disk-budget (bytes, or k, m, g)",
		    arg);
		budget = 0;
		return (-1);
	}
	budget_file_size = file_size;
	return (0);
}

/*
 * A file opened anew under a name of the list (-W, or -G with a name
 * that does not change) is no longer the file listed: it is the one
 * being written, which must never be deleted.
 */
static void
budget_drop(const char *name)
{
	u_int i;

	for (i = 0; i < budget_nfiles; i++) {
		if (strcmp(budget_files[i].name, name) == 0) {
			free(budget_files[i].name);
			memmove(&budget_files[i], &budget_files[i + 1],
			    (budget_nfiles - i - 1) * sizeof(*budget_files));
			budget_nfiles--;
			return;
		}
	}
}

/*
 * A file closed at a rotation joins the budget's list, with where its
 * stream had reached: for a file not compressed, the size it will have
 * once the writer thread has written it.
 */
static void
budget_add(const char *name, int64_t handed)
{
	struct budget_file *grown;

	if (budget == 0 && ring_names == 0)
		return;
	if (budget_nfiles == budget_alloc) {
		grown = realloc(budget_files,
		    (budget_alloc * 2 + 16) * sizeof(*budget_files));
		if (grown == NULL)
			goto nomem;
		budget_files = grown;
		budget_alloc = budget_alloc * 2 + 16;
	}
	if ((budget_files[budget_nfiles].name = strdup(name)) == NULL)
		goto nomem;
	budget_files[budget_nfiles].handed = handed > 0 ? (uint64_t)handed : 0;
	budget_nfiles++;
	return;

nomem:
	fprintf(stderr, "%s: WARNING: out of memory; no file will be deleted\n",
	    program_name);
	budget = 0;
	ring_names = 0;
	space_budget = 0;
}

/*
 * What the files from the from'th on take, the last pending ones, which
 * may still grow, counted as at least room and what was handed to them.
 */
static uint64_t
budget_total(u_int from, u_int pending, uint64_t room)
{
	struct stat st;
	uint64_t total = 0, size;
	u_int i;

	for (i = from; i < budget_nfiles; i++) {
		size = stat(budget_files[i].name, &st) == 0 ?
		    (uint64_t)st.st_size : 0;
		if (i + pending >= budget_nfiles) {
			if (size < room)
				size = room;
			if (size < budget_files[i].handed)
				size = budget_files[i].handed;
		}
		total += size;
	}
	return (total);
}

/* Delete the i'th file of the list; 1 if it was there. */
static int
budget_unlink(u_int i)
{
	if (unlink(budget_files[i].name) == 0)
		return (1);
	if (errno != ENOENT)
		fprintf(stderr, "%s: WARNING: %s: %s\n", program_name,
		    budget_files[i].name, strerror(errno));
	return (0);
}

/* Take the n oldest files, deleted, off the list. */
static void
budget_forget(u_int n)
{
	u_int i;

	for (i = 0; i < n; i++)
		free(budget_files[i].name);
	memmove(budget_files, &budget_files[n],
	    (budget_nfiles - n) * sizeof(*budget_files));
	budget_nfiles -= n;
}

/*
 * Room for the next file: the -C size, or the largest file so far, or
 * the most handed to any file so far, if that is more.
 */
static uint64_t
budget_room(void)
{
	struct stat st;
	uint64_t room;
	u_int i;

	room = budget_file_size > 0 ? (uint64_t)budget_file_size : 0;
	for (i = 0; i < budget_nfiles; i++) {
		if (stat(budget_files[i].name, &st) == 0 &&
		    (uint64_t)st.st_size > room)
			room = (uint64_t)st.st_size;
		if (budget_files[i].handed > room)
			room = budget_files[i].handed;
	}
	return (room);
}

/*
 * Delete the oldest files while they and room for the next are over the
 * budget; where that needs a pending file gone, wait until it is
 * complete.
 */
static void
budget_keep(u_int pending)
{
	uint64_t limit, room;
	u_int gone;

	limit = budget;
	if (space_budget != 0 && (limit == 0 || space_budget < limit))
		limit = space_budget;
	if (limit == 0)
		return;
	room = budget_room();
	for (gone = 0; gone < budget_nfiles &&
	    budget_total(gone, pending, room) + room > limit; gone++) {
		if (gone + pending >= budget_nfiles) {
			pending = budget_nfiles - gone - 1;
			wait_until_pending(pending);
		}
		if (budget_unlink(gone)) {
			if (limit == budget)
				budget_deleted++;
			else
				deleted_for_space++;
		}
	}
	budget_forget(gone);
}

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
/*
 * With -C and -W, or --disk-budget, the disk filled before the ring or
 * the budget did.  The capture is to keep the newest packets, as it
 * would on a larger disk, so the oldest complete file of the run goes
 * rather than them: one file each time watch_space() finds that more
 * blocks found no space, until writing resumes.  What the run's files
 * held when writing stopped, the current one's current_size bytes
 * included, is what the disk holds: from then on budget_keep() keeps
 * them within that at each rotation, so that the next file finds its
 * space.  The files handed to the closing thread and not yet complete
 * (the newest of the list) stay.
 */
static void
make_room(int64_t current_size, int stop_begins)
{
	uint64_t fitted, room;
	u_int pending;

	if (budget == 0 && ring_names == 0)
		return;
	if (stop_begins) {
		fitted = budget_total(0, 0, 0) +
		    (current_size > 0 ? (uint64_t)current_size : 0);
		room = budget_room();
		if (fitted < room)
			fitted = room;
		if (space_budget == 0 || fitted < space_budget)
			space_budget = fitted;
	}
	pending = dumpopts_writer_on ? pcap_dump_close_async_wait(UINT_MAX) : 0;
	if (budget_nfiles <= pending)
		return;
	if (budget_unlink(0))
		deleted_for_space++;
	budget_forget(1);
}
#endif /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */

static void
print_budget(void)
{
	static int printed;

	if (printed)
		return;
	printed = 1;
	if (deleted_for_space != 0)
		fprintf(stderr, "%u file%s deleted for lack of space\n",
		    deleted_for_space, PLURAL_SUFFIX(deleted_for_space));
	if (budget == 0)
		return;
	fprintf(stderr, "%u file%s deleted to keep within the disk budget of %" PRIu64 " bytes\n",
	    budget_deleted, PLURAL_SUFFIX(budget_deleted), budget);
}

int
dumpfile_close(pcap_dumper_t **pdd, const char *name, int last)
{
	pcap_dumper_t *d;

	d = *pdd;
	*pdd = NULL;
	if (d != NULL && !last) {
		budget_add(name, stream_end(d));
		/* A stop the file had since the last look is said now. */
		watch_space(d, name, 0);
	}
	/* Not dump_failed: the closing thread may set it later. */
	if (d != NULL && !last && close_in_background(d, name) == 0) {
		budget_keep(max_pending);
		return (0);
	}
	/* A rotation with no file open (dumpfile_open_failed()). */
	if (d == NULL && !last)
		return (0);
	/* The earlier files first, and never two threads on "totals". */
	wait_for_background();
	if (d != NULL) {
		close_now(d, name);
		if (zcmd != NULL)
			zcmd(name);
	}
	if (!last)
		budget_keep(0);
	else {
		print_figures();
		print_budget();
	}
	return (dump_failed || packets_without_file != 0 ? -1 : 0);
}

int
dumpfile_open_failed(pcap_t *p)
{
	/* Capsicum's capability mode forbids opening again by name. */
#ifndef HAVE_CAPSICUM
	switch (open_errno) {

	case EROFS:
	case EIO:
	case ENOSPC:
#ifdef EDQUOT
	case EDQUOT:
#endif
		/* A rotation while there is no file is the same stop. */
		if (!no_file) {
			no_file = 1;
			stop_begins(&open_stops);
			fprintf(stderr, "%s: %s; packets are lost until the file can be opened\n",
			    program_name, pcap_geterr(p));
		}
		next_open_try = time(NULL) + 1;
		return (0);
	}
#endif
	fprintf(stderr, "%s: %s\n", program_name, pcap_geterr(p));
	return (-1);
}

pcap_dumper_t *
dumpfile_reopen(pcap_t *p, const char *name)
{
	pcap_dumper_t *d;
	time_t now;

	now = time(NULL);
	if (now >= next_open_try) {
		next_open_try = now + 1;
		d = dumpfile_open(p, name);
		if (d != NULL) {
			no_file = 0;
			stop_ends(&open_stops);
			fprintf(stderr, "%s: %s: writing again\n",
			    program_name, name);
			return (d);
		}
	}
	packets_without_file++;
	return (NULL);
}

/*
 * SIGUSR2 asks for a flush.  The handler only sets a flag: a flush takes
 * a lock and, with a writer thread, waits for it, neither of which a
 * signal handler may do, and the dumper it would use can be closed by a
 * rotation at any time.  The capture loop flushes the current dumper.
 */
void
dumpfile_after_packet(pcap_dumper_t *d)
{
	if (d == NULL)
		return;
	if (dumpfile_flush_requested) {
		dumpfile_flush_requested = 0;
		(void)pcap_dump_flush(d);
	}
	if (++packets_unchecked >= SPACE_CHECK_EVERY) {
		packets_unchecked = 0;
		watch_space(d, current_name != NULL && *current_name != NULL ?
		    *current_name : "savefile", 1);
	}
}

/*
 * exit() neither closes a dumper nor waits for threads: a file that a
 * rotation handed over would lose what its ring still holds, and the
 * current one its last block, whenever tcpdump exits through error() or
 * the -W file limit.  Finish them.
 */
int
dumpfile_exit(void)
{
	wait_for_background();
	if (current != NULL && *current != NULL) {
		close_now(*current, current_name != NULL &&
		    *current_name != NULL ? *current_name : "savefile");
		*current = NULL;
	}
	print_figures();
	print_budget();
	return (dump_failed || packets_without_file != 0 ? -1 : 0);
}
