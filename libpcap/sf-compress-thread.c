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
 * Compressed savefiles: the glue between a dumper (sf-compress-dumper.c)
 * and its writer thread (sf-writer.c), and the compression helpers of
 * that thread (sf-compress-jobs.c).  Built with pthreads only;
 * sf-compress-nothread.c stands in for it without them.
 *
 * The application's thread, in pcap_dump(), only hands whole records to
 * the writer's ring; the writer thread runs the dumper's own code on
 * them (pcapint_sfc_stream_write()), which fills blocks, compresses and
 * writes them, exactly as the application's thread does without a
 * writer thread, so the file is the same byte for byte.
 */

#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pcap-int.h"
#include "sf-compress-dumper.h"
#include "sf-compress-jobs.h"
#include "sf-writer.h"

/*
 * Writer ring bounds.  The default, PCAP_DUMP_WRITER_RING_DEFAULT in
 * pcap/pcap.h, is 128 MiB: in 2-second bursts of 1518-byte frames at
 * 40,000 frames/s into a pipe drained at 20 MB/s, 64 MiB lost 10% of
 * the frames and 128 MiB none, while it is small next to the memory of
 * a capture box.  A ring smaller than a 64 KiB record makes little
 * sense; the top is what a size_t can hold comfortably.
 */
#define	SFC_MIN_RING		(64 * 1024)
#define	SFC_MAX_RING		((size_t)1 << (sizeof(size_t) > 4 ? 40 : 30))

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
 * page fault the first time round (copying 171 MB of HTTP frames took
 * 0.17 s of system time with a 216 MiB ring, 0.08 s with 4 MiB).
 */
#define	SFC_MAX_BLOCKING_RING	(4 * 1024 * 1024)

struct pcapint_sfc_thr {
	struct pcapint_writer *writer;

	/* The application's side: the record being assembled. */
	u_char	hdr[PCAP_REC_HDR_LEN];	/* record header so far */
	size_t	hdr_fill;
	size_t	body;		/* body length of the current record */
	u_char	*stage;		/* a body that arrives in pieces */
	size_t	stage_size;
	size_t	stage_fill;
	uint64_t too_big;	/* split records too large to stage */

	/*
	 * Blocks compressed in parallel (sf-compress-jobs.c), on the
	 * writer thread only: the dumper's buf is then the input of the
	 * slot of block job_next, and own_buf the block allocated at the
	 * open.
	 */
	struct pcapint_sfc_jobs *jobs;
	int	jobs_tried;
	u_int	jobs_cpus;	/* CPUs the writer and its helpers may use */
	uint64_t job_next;	/* blocks submitted */
	uint64_t job_written;	/* ... of them written (or dropped) */
	u_char	*own_buf;

	/*
	 * A copy of a savefile: the CPU clock of the thread that opened
	 * the dumper, which is the one that reads the savefile and calls
	 * pcap_dump() in every program we know of, for the level
	 * controller's rule for copies (sf-compress-adapt.c).  Were
	 * another thread to call pcap_dump(), the producer would seem to
	 * cost nothing, and that rule would only compress less.
	 */
	int	have_producer_clock;
	clockid_t producer_clock;
	uint64_t producer_last;	/* its CPU time at the last sample, ns */
};

int
pcapint_sfc_thr_check_ring(size_t ring_size, char *errbuf)
{
	if (ring_size < SFC_MIN_RING || ring_size > SFC_MAX_RING) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "writer ring size %zu out of range (%d..%zu bytes)",
		    ring_size, SFC_MIN_RING, SFC_MAX_RING);
		return (-1);
	}
	return (0);
}

/*
 * Checked when the option is set, so that a bad CPU number is reported
 * when it is given rather than when the first file is opened; the
 * thread fails to start too if the CPU went away in between.
 */
int
pcapint_sfc_thr_check_cpu(int cpu, char *errbuf)
{
	return (pcapint_writer_check_cpu(cpu, errbuf));
}

int
pcapint_sfc_thr_check_nice(int nice_incr, char *errbuf)
{
	return (pcapint_writer_check_nice(nice_incr, errbuf));
}

/*
 * Write the compressed blocks in order: all of those submitted before
 * block upto, waiting for them if need be, then any that are ready.
 * After an error they are dropped unwritten, their records lost.
 */
static void
sfc_jobs_collect(struct pcapint_sfc_dumper *w, uint64_t upto)
{
	struct pcapint_sfc_thr *t = w->thr;
	struct pcapint_sfc_block *b;

	while (t->job_written < t->job_next) {
		if (t->job_written >= upto &&
		    !pcapint_sfc_jobs_ready(t->jobs, t->job_written))
			break;
		b = pcapint_sfc_jobs_wait(t->jobs, t->job_written);
		(void)pcapint_sfc_block_out(w, b);
		t->job_written++;
	}
}

/*
 * Hand the full block to the compressing threads and go on in the next
 * slot, once the block that was in it before is written.  Returns 0
 * without helpers, 1 with *ret the result with them.
 */
int
pcapint_sfc_thr_submit(struct pcapint_sfc_dumper *w, int *ret)
{
	struct pcapint_sfc_thr *t = w->thr;
	struct pcapint_sfc_block *b;

	if (t->jobs == NULL)
		return (0);
	b = pcapint_sfc_jobs_slot(t->jobs, t->job_next);
	b->fill = w->fill;
	b->records = w->rec_buffered;
	pcapint_sfc_level_plan(w, b);
	pcapint_sfc_jobs_submit(t->jobs, t->job_next);
	t->job_next++;
	w->fill = 0;
	w->rec_buffered = 0;
	sfc_jobs_collect(w, t->job_next >= SFC_JOBS_SLOTS ?
	    t->job_next - SFC_JOBS_SLOTS + 1 : 0);
	w->buf = pcapint_sfc_jobs_slot(t->jobs, t->job_next)->in;
	*ret = w->err != 0 ? -1 : 0;
	return (1);
}

/*
 * On the writer thread, at its first records: compress on more than one
 * CPU if it may use more than one.  Without helpers, or if they cannot
 * be had, blocks are compressed on the writer thread, into the same
 * file; a failure here costs speed, not data, so it is not an error.
 */
static void
sfc_jobs_begin(struct pcapint_sfc_dumper *w)
{
	struct pcapint_sfc_thr *t = w->thr;
	struct pcapint_sfc_block *b;
	char ebuf[PCAP_ERRBUF_SIZE];
	u_int n;

	t->jobs_tried = 1;
	if (!w->codec->compresses || (n = pcapint_sfc_jobs_helpers()) == 0)
		return;
	t->jobs_cpus = pcapint_sfc_jobs_cpus();
	t->jobs = pcapint_sfc_jobs_start(w->codec, w->level, w->block_size,
	    n, ebuf);
	if (t->jobs == NULL)
		return;
	/* The file header, or whatever is in the block, moves over. */
	b = pcapint_sfc_jobs_slot(t->jobs, 0);
	memcpy(b->in, w->buf, w->fill);
	t->own_buf = w->buf;
	w->buf = b->in;
}

/* After the writer thread is gone: everything is written or lost. */
static void
sfc_jobs_end(struct pcapint_sfc_dumper *w)
{
	struct pcapint_sfc_thr *t = w->thr;

	if (t->jobs == NULL)
		return;
	pcapint_sfc_jobs_stop(t->jobs);
	t->jobs = NULL;
	w->buf = t->own_buf;
	w->fill = 0;
}

/*
 * The application's side.  pcap_dump() writes a record as two
 * fwrite()s, header then data; hand the writer thread whole records
 * only, so that a record the ring has no room for is dropped whole and
 * counted, never torn.  The header is held until the data arrives,
 * which is then copied into the ring straight from pcap_dump()'s
 * buffer; a record whose data comes in pieces (only other callers of
 * fwrite() do that) is collected in the stage first.  No system call,
 * lock or allocation here.
 */
void
pcapint_sfc_thr_write(struct pcapint_sfc_dumper *w, const u_char *p,
    size_t len)
{
	struct pcapint_sfc_thr *t = w->thr;
	size_t n;
	uint32_t caplen;

	while (len != 0) {
		if (t->hdr_fill < PCAP_REC_HDR_LEN) {
			n = PCAP_REC_HDR_LEN - t->hdr_fill;
			if (n > len)
				n = len;
			memcpy(t->hdr + t->hdr_fill, p, n);
			t->hdr_fill += n;
			p += n;
			len -= n;
			if (t->hdr_fill < PCAP_REC_HDR_LEN)
				break;
			memcpy(&caplen, t->hdr + 8, sizeof(caplen));
			t->body = caplen;
			t->stage_fill = 0;
			if (caplen == 0) {
				(void)pcapint_writer_put(t->writer, t->hdr,
				    PCAP_REC_HDR_LEN);
				t->hdr_fill = 0;
			}
			continue;
		}
		if (t->stage_fill == 0 && len >= t->body) {
			/* All of the data: no staging. */
			(void)pcapint_writer_put2(t->writer, t->hdr,
			    PCAP_REC_HDR_LEN, p, t->body);
			p += t->body;
			len -= t->body;
			t->hdr_fill = 0;
			continue;
		}
		n = t->body - t->stage_fill;
		if (n > len)
			n = len;
		/* Too large for the stage: count the bytes, drop it. */
		if (t->body <= t->stage_size)
			memcpy(t->stage + t->stage_fill, p, n);
		t->stage_fill += n;
		p += n;
		len -= n;
		if (t->stage_fill == t->body) {
			if (t->body <= t->stage_size)
				(void)pcapint_writer_put2(t->writer, t->hdr,
				    PCAP_REC_HDR_LEN, t->stage, t->body);
			else
				t->too_big++;
			t->hdr_fill = 0;
		}
	}
}

int
pcapint_sfc_thr_record(struct pcapint_sfc_dumper *w, const void *hdr,
    const u_char *data, bpf_u_int32 caplen)
{
	struct pcapint_sfc_thr *t = w->thr;

	/* Someone fwrite()s part of a record: take the long way. */
	if (t->hdr_fill != 0)
		return (-1);
	(void)pcapint_writer_put2(t->writer, hdr, PCAP_REC_HDR_LEN, data,
	    caplen);
	return (0);
}

/* The writer thread's side: the same path as without a thread. */
static int
sfc_thr_consume(void *ctx, const unsigned char *buf, size_t len)
{
	struct pcapint_sfc_dumper *w = ctx;

	if (!w->thr->jobs_tried)
		sfc_jobs_begin(w);
	pcapint_sfc_stream_write(w, buf, len);
	return (w->err);
}

static int
sfc_thr_flush(void *ctx)
{
	struct pcapint_sfc_dumper *w = ctx;

	(void)pcapint_sfc_flush_block(w);
	/* Everything handed over is on disk once this returns. */
	if (w->thr->jobs != NULL)
		sfc_jobs_collect(w, w->thr->job_next);
	return (w->err);
}

static const struct pcapint_writer_ops sfc_thr_ops = {
	sfc_thr_consume, sfc_thr_flush
};

static void
sfc_thr_free(struct pcapint_sfc_thr *t)
{
	free(t->stage);
	free(t);
}

int
pcapint_sfc_thr_start(struct pcapint_sfc_dumper *w, pcap_t *p,
    const pcap_dump_options_t *opts)
{
	struct pcapint_writer_params params;
	struct pcapint_sfc_thr *t;

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
#if defined(_POSIX_THREAD_CPUTIME) && _POSIX_THREAD_CPUTIME >= 0
	if (params.blocking)
		t->have_producer_clock =
		    pthread_getcpuclockid(pthread_self(), &t->producer_clock) == 0;
#endif
	t->stage_size = MAXIMUM_SNAPLEN;
	t->stage = malloc(t->stage_size);
	if (t->stage == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		sfc_thr_free(t);
		return (-1);
	}
	/* Set before the thread starts: it runs the dumper's code. */
	w->thr = t;
	t->writer = pcapint_writer_start(&params, &sfc_thr_ops, w, p->errbuf);
	if (t->writer == NULL) {
		w->thr = NULL;
		sfc_thr_free(t);
		return (-1);
	}
	return (0);
}

/*
 * The writer gave up on a savefile that took no data for 10 seconds:
 * the dumper's sticky error, and its message, say so.
 */
static void
sfc_thr_stalled(struct pcapint_sfc_dumper *w, int err)
{
	int zero = 0;

	if (err != ETIMEDOUT || __atomic_load_n(&w->err, __ATOMIC_ACQUIRE) != 0)
		return;
	snprintf(w->errmsg, sizeof(w->errmsg),
	    "the savefile took no data for 10 seconds (a stalled disk or pipe); given up");
	(void)__atomic_compare_exchange_n(&w->err, &zero, ETIMEDOUT, 0,
	    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

int
pcapint_sfc_thr_flush(struct pcapint_sfc_dumper *w)
{
	int err;

	err = pcapint_writer_flush(w->thr->writer);
	sfc_thr_stalled(w, err);
	return (err != 0 ? -1 : 0);
}

/*
 * With a writer thread, a record handed to pcap_dump() is in the ring,
 * dropped (ring full, or too large to stage) or refused after the
 * error; those are counted on this side.
 */
void
pcapint_sfc_thr_stats(struct pcapint_sfc_dumper *w, struct pcap_dump_stats *s)
{
	struct pcapint_writer_stats ws;

	pcapint_writer_get_stats(w->thr->writer, &ws);
	s->records_dropped = ws.dropped_full + w->thr->too_big;
	s->records = ws.records_in + ws.dropped_error + s->records_dropped;
	s->ring_high_water = ws.high_water;
	s->ring_size = ws.ring_size;
}

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

void
pcapint_sfc_thr_load(struct pcapint_sfc_dumper *w,
    struct pcapint_sfc_adapt_sample *s)
{
	struct pcapint_sfc_thr *t = w->thr;

	s->backlog = pcapint_writer_backlog(t->writer);
	s->ring_size = pcapint_writer_ring_size(t->writer);
	s->threads = 1;
	s->cpus = 1;
	if (t->jobs != NULL) {
		s->threads += pcapint_sfc_jobs_nhelpers(t->jobs);
		s->cpus = t->jobs_cpus;
	}
	if (t->have_producer_clock)
		s->producer_ns = sfc_thr_producer_ns(t);
}

void
pcapint_sfc_thr_stop(struct pcapint_sfc_dumper *w)
{
	struct pcapint_sfc_thr *t = w->thr;

	sfc_thr_stalled(w, pcapint_writer_stop(t->writer));
	t->writer = NULL;
	sfc_jobs_end(w);
	w->thr = NULL;
	sfc_thr_free(t);
}
