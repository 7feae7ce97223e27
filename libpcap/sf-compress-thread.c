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
 * Compressed savefiles: a dumper's writer thread (sf-writer.c) and its
 * compression helpers (sf-compress-jobs.c).  Built with pthreads only;
 * sf-compress-nothread.c stands in for it without them.
 *
 * The application's thread, in pcap_dump(), only hands whole records to
 * the writer's ring.  The writer thread runs the dumper's stages
 * (sf-compress-pipeline.h) on them, exactly as the application's thread
 * does without a writer thread, so the file is the same byte for byte;
 * with helpers, the codec stage of several blocks runs at once.
 */

#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pcap-int.h"
#include "sf-compress-pipeline.h"
#include "sf-compress-jobs.h"
#include "sf-compress-thread.h"
#include "sf-writer.h"

/*
 * Copying a savefile through a writer thread, the capture waits for
 * room in the ring instead of dropping (see sf-writer.c), so the ring
 * must hold the largest record there can be, or that record could
 * never go in: at least this much, whatever size was asked for.
 */
#define	SFC_MIN_BLOCKING_RING	(MAXIMUM_SNAPLEN + PCAP_REC_HDR_LEN)

/*
 * ... and at most this much: reading a savefile is faster than any
 * writer, so the ring is always full and the reading waits for room
 * whatever its size, and every page of a larger ring is only one more
 * page fault the first time round.
 */
#define	SFC_MAX_BLOCKING_RING	(4 * 1024 * 1024)

struct pcapint_sfc_thr {
	struct pcapint_writer *writer;
	struct pcapint_sfc_pipeline *pl;	/* the writer thread's */

	/*
	 * The application's side: records written to the FILE * as
	 * bytes, assembled whole in the stage before they go to the
	 * ring, so that a record the ring has no room for is dropped
	 * whole and counted, never torn.
	 */
	struct pcapint_sfc_assembler stage;
	u_char	*stage_buf;
	int	oversized;	/* the record is larger than the stage */
	uint64_t too_big;	/* such records, dropped */

	/*
	 * Blocks compressed in parallel (sf-compress-jobs.c), on the
	 * writer thread only: the assembler then fills the input of the
	 * slot of block job_next.
	 */
	struct pcapint_sfc_jobs *jobs;
	int	jobs_tried;
	u_int	jobs_cpus;	/* CPUs the writer and its helpers may use */
	uint64_t job_next;	/* blocks submitted */
	uint64_t job_written;	/* ... of them written (or dropped) */
#ifdef SFC_ADAPTIVE_LEVEL

	/*
	 * A copy of a savefile: the CPU clock of the thread that opened
	 * the dumper, which is the one that reads the savefile and calls
	 * pcap_dump() in every program we know of, for the level
	 * controller's rule for copies.  Were another thread to call
	 * pcap_dump(), the producer would seem to cost nothing, and that
	 * rule would only compress less.
	 */
	int	have_producer_clock;
	clockid_t producer_clock;
	uint64_t producer_last;	/* its CPU time at the last sample, ns */
#endif
};

/*
 * Write the compressed blocks in order: all of those submitted before
 * block upto, waiting for them if need be, then any that are ready.
 * After an error they are dropped unwritten, their records lost.
 */
static void
sfc_jobs_collect(struct pcapint_sfc_thr *t, uint64_t upto)
{
	struct pcapint_sfc_block *b;

	while (t->job_written < t->job_next) {
		if (t->job_written >= upto &&
		    !pcapint_sfc_jobs_ready(t->jobs, t->job_written))
			break;
		b = pcapint_sfc_jobs_wait(t->jobs, t->job_written);
		(void)pcapint_sfc_pipeline_write(t->pl, b);
		t->job_written++;
	}
}

/*
 * The assembler's block_full with helpers: plan the full block, hand it
 * to the compressing threads and go on in the next slot, once the
 * block that was in it before is written.
 */
static int
sfc_jobs_block_full(void *ctx)
{
	struct pcapint_sfc_thr *t = ctx;
	struct pcapint_sfc_pipeline *pl = t->pl;
	struct pcapint_sfc_assembler *a = &pl->assembler;
	struct pcapint_sfc_block *b;

	if (pl->sink.err != 0)
		return (-1);
	b = pcapint_sfc_jobs_slot(t->jobs, t->job_next);
	b->fill = a->fill;
	b->records = a->records;
	pcapint_sfc_planner_plan(&pl->planner, b);
	pcapint_sfc_jobs_submit(t->jobs, t->job_next);
	t->job_next++;
	sfc_jobs_collect(t, t->job_next >= SFC_JOBS_SLOTS ?
	    t->job_next - SFC_JOBS_SLOTS + 1 : 0);
	pcapint_sfc_assembler_next(a,
	    pcapint_sfc_jobs_slot(t->jobs, t->job_next)->in,
	    pl->planner.block_full);
	return (pl->sink.err != 0 ? -1 : 0);
}

/*
 * On the writer thread, at its first records: compress on more than one
 * CPU if it may use more than one.  Without helpers, or if they cannot
 * be had, blocks are compressed on the writer thread, into the same
 * file; a failure here costs speed, not data, so it is not an error.
 */
static void
sfc_jobs_begin(struct pcapint_sfc_thr *t)
{
	struct pcapint_sfc_pipeline *pl = t->pl;
	struct pcapint_sfc_assembler *a = &pl->assembler;
	struct pcapint_sfc_block *b;
	char ebuf[PCAP_ERRBUF_SIZE];
	u_int n;

	t->jobs_tried = 1;
	if (!pl->codec->compresses || (n = pcapint_sfc_jobs_helpers()) == 0)
		return;
	t->jobs_cpus = pcapint_sfc_jobs_cpus();
	t->jobs = pcapint_sfc_jobs_start(pl->codec, pl->planner.level,
	    pl->planner.block_size, n, ebuf);
	if (t->jobs == NULL)
		return;
	/* The file header, or whatever is in the block, moves over. */
	b = pcapint_sfc_jobs_slot(t->jobs, 0);
	pcapint_sfc_assembler_redirect(a, b->in, sfc_jobs_block_full, t);
}

/* After the writer thread is gone: everything is written or lost. */
static void
sfc_jobs_end(struct pcapint_sfc_thr *t)
{
	struct pcapint_sfc_pipeline *pl = t->pl;
	struct pcapint_sfc_assembler *a = &pl->assembler;

	if (t->jobs == NULL)
		return;
	pcapint_sfc_jobs_stop(t->jobs);
	t->jobs = NULL;
	pcapint_sfc_assembler_next(a, pl->buf, a->full);
	pcapint_sfc_assembler_redirect(a, pl->buf,
	    pcapint_sfc_pipeline_block_full, pl);
}

/*
 * The application's side.  A record that arrives as bytes (only callers
 * of fwrite() other than pcap_dump() do that) is assembled in the stage
 * and goes to the ring once whole; one larger than the stage is counted
 * and dropped.  No system call, lock or allocation here.
 */
static int
sfc_stage_full(void *ctx)
{
	struct pcapint_sfc_thr *t = ctx;

	t->oversized = 1;
	pcapint_sfc_assembler_next(&t->stage, t->stage.buf, t->stage.full);
	return (0);
}

static void
sfc_stage_record_end(void *ctx)
{
	struct pcapint_sfc_thr *t = ctx;

	if (t->oversized)
		t->too_big++;
	else
		(void)pcapint_writer_put(t->writer, t->stage.buf,
		    t->stage.fill);
	t->oversized = 0;
	pcapint_sfc_assembler_next(&t->stage, t->stage.buf, t->stage.full);
}

void
pcapint_sfc_thr_write(struct pcapint_sfc_thr *t, const u_char *p, size_t len)
{
	pcapint_sfc_assemble(&t->stage, p, len);
}

int
pcapint_sfc_thr_record(struct pcapint_sfc_thr *t, const void *hdr,
    const u_char *data, bpf_u_int32 caplen)
{
	/* Someone fwrite()s part of a record: take the long way. */
	if (!PCAPINT_SFC_AT_RECORD_BOUNDARY(&t->stage))
		return (-1);
	(void)pcapint_writer_put2(t->writer, hdr, PCAP_REC_HDR_LEN, data,
	    caplen);
	return (0);
}

/* The writer thread's side: the same stages as without a thread. */
static int
sfc_thr_consume(void *ctx, const unsigned char *buf, size_t len)
{
	struct pcapint_sfc_thr *t = ctx;

	if (!t->jobs_tried)
		sfc_jobs_begin(t);
	pcapint_sfc_assemble(&t->pl->assembler, buf, len);
	return (t->pl->sink.err);
}

static int
sfc_thr_flush(void *ctx)
{
	struct pcapint_sfc_thr *t = ctx;

	(void)pcapint_sfc_assembler_flush(&t->pl->assembler);
	/* Everything handed over is on disk once this returns. */
	if (t->jobs != NULL)
		sfc_jobs_collect(t, t->job_next);
	return (t->pl->sink.err);
}

static const struct pcapint_writer_ops sfc_thr_ops = {
	sfc_thr_consume, sfc_thr_flush
};
#ifdef SFC_ADAPTIVE_LEVEL

/*
 * The producer's CPU time since the last call; 0 the first time, and
 * when its clock is gone (the thread has ended) or went backwards.
 */
static uint64_t
sfc_thr_producer_ns(struct pcapint_sfc_thr *t)
{
	struct timespec ts;
	uint64_t now, d;

	if (clock_gettime(t->producer_clock, &ts) != 0) {
		t->have_producer_clock = 0;
		return (0);
	}
	now = SFC_TIMESPEC_NS(ts);
	d = t->producer_last != 0 && now > t->producer_last ?
	    now - t->producer_last : 0;
	t->producer_last = now;
	return (d);
}

/* The planner's view of the writer's load, on the writer thread. */
static void
sfc_thr_load(void *ctx, struct pcapint_sfc_load *load)
{
	struct pcapint_sfc_thr *t = ctx;

	load->backlog = pcapint_writer_backlog(t->writer);
	load->ring_size = pcapint_writer_ring_size(t->writer);
	load->threads = 1;
	load->cpus = 1;
	if (t->jobs != NULL) {
		load->threads += pcapint_sfc_jobs_nhelpers(t->jobs);
		load->cpus = t->jobs_cpus;
	}
	if (t->have_producer_clock)
		load->producer_ns = sfc_thr_producer_ns(t);
}
#endif

static void
sfc_thr_free(struct pcapint_sfc_thr *t)
{
	free(t->stage_buf);
	free(t);
}

int
pcapint_sfc_thr_start(struct pcapint_sfc_thr **tp,
    struct pcapint_sfc_pipeline *pl, pcap_t *p,
    const struct pcap_dump_options *opts)
{
	struct pcapint_writer_params params;
	struct pcapint_sfc_thr *t;
	size_t stage_size;

	*tp = NULL;
	if (opts->ring_size == 0)
		return (0);
	memset(&params, 0, sizeof(params));
	params.ring_size = opts->ring_size;
	params.cpu = opts->cpu;
	params.nice_incr = opts->nice_incr;
	/*
	 * Records read from a savefile: nothing overflows if the reading
	 * waits, and a record dropped would be a real loss in the copy,
	 * so wait for room instead.
	 */
	if (p->rfile != NULL) {
		params.blocking = 1;
		if (params.ring_size < SFC_MIN_BLOCKING_RING)
			params.ring_size = SFC_MIN_BLOCKING_RING;
		if (params.ring_size > SFC_MAX_BLOCKING_RING)
			params.ring_size = SFC_MAX_BLOCKING_RING;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (-1);
	}
	t->pl = pl;
#ifdef SFC_ADAPTIVE_LEVEL
#if defined(_POSIX_THREAD_CPUTIME) && _POSIX_THREAD_CPUTIME >= 0
	if (params.blocking)
		t->have_producer_clock =
		    pthread_getcpuclockid(pthread_self(), &t->producer_clock) == 0;
#endif
#endif
	stage_size = PCAP_REC_HDR_LEN + MAXIMUM_SNAPLEN;
	t->stage_buf = malloc(stage_size);
	if (t->stage_buf == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		sfc_thr_free(t);
		return (-1);
	}
	/* The file header is in the first block already. */
	pcapint_sfc_assembler_init(&t->stage, t->stage_buf, stage_size, 1,
	    sfc_stage_full, t);
	t->stage.record_end = sfc_stage_record_end;
#ifdef SFC_ADAPTIVE_LEVEL
	/* Set before the thread starts, which may ask for it at once. */
	pcapint_sfc_pipeline_set_load(pl, sfc_thr_load, t);
#endif
	t->writer = pcapint_writer_start(&params, &sfc_thr_ops, t, p->errbuf);
	if (t->writer == NULL) {
#ifdef SFC_ADAPTIVE_LEVEL
		pcapint_sfc_pipeline_set_load(pl, NULL, NULL);
#endif
		sfc_thr_free(t);
		return (-1);
	}
	*tp = t;
	return (0);
}

/*
 * The writer gave up on a savefile that took no data for 10 seconds:
 * the sink's sticky error, and its message, say so.
 */
static void
sfc_thr_stalled(struct pcapint_sfc_thr *t, int err)
{
	if (err == ETIMEDOUT)
		pcapint_sfc_sink_give_up(&t->pl->sink, ETIMEDOUT,
		    "the savefile took no data for 10 seconds (a stalled disk or pipe); given up");
}

int
pcapint_sfc_thr_flush(struct pcapint_sfc_thr *t)
{
	int err;

	err = pcapint_writer_flush(t->writer);
	sfc_thr_stalled(t, err);
	return (err != 0 ? -1 : 0);
}

/*
 * With a writer thread, a record handed to pcap_dump() is in the ring,
 * dropped (ring full, or too large to stage) or refused after the
 * error; those are counted on this side.
 */
void
pcapint_sfc_thr_stats(struct pcapint_sfc_thr *t, struct pcap_dump_stats *s)
{
	struct pcapint_writer_stats ws;

	pcapint_writer_get_stats(t->writer, &ws);
	s->records_dropped = ws.dropped_full + t->too_big;
	s->records = ws.records_in + ws.dropped_error + s->records_dropped;
	s->ring_high_water = ws.high_water;
	s->ring_size = ws.ring_size;
}

void
pcapint_sfc_thr_stop(struct pcapint_sfc_thr *t)
{
	sfc_thr_stalled(t, pcapint_writer_stop(t->writer));
	t->writer = NULL;
	sfc_jobs_end(t);
#ifdef SFC_ADAPTIVE_LEVEL
	pcapint_sfc_pipeline_set_load(t->pl, NULL, NULL);
#endif
	sfc_thr_free(t);
}
