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
 * Compressed savefiles: the level of each block, and whether the codec
 * runs on it.
 *
 * At a fixed level ("zstd:3"), the incompressible-block skip of
 * sf-compress-policy.c alone decides whether the codec runs.  When the
 * level adapts ("zstd:auto", and "zstd" or the default with no level),
 * the controller of sf-compress-adapt.c first picks the level, from
 * what this file measures of every block written: the CPU time the
 * codec took on the thread that ran it, the time spent in write(), the
 * wall-clock time between blocks, the bytes in and out and the backlog
 * of the writer thread's ring.  Every block is a container frame of its
 * own, so the level may change at any block and the file stays valid
 * for every reader.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pcap-int.h"
#include "sf-compress-dumper.h"

static uint64_t
sfc_clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) != 0)
		return (0);
	return (SFC_TIMESPEC_NS(ts));
}

/*
 * The CPU time of the calling thread.  Where there is no such clock
 * the codec seems free, and the controller then only ever sees the disk
 * as the limit; Linux, the BSDs and macOS all have it.
 */
#ifdef CLOCK_THREAD_CPUTIME_ID
#define	SFC_THREAD_CPU_NS()	sfc_clock_ns(CLOCK_THREAD_CPUTIME_ID)
#else
#define	SFC_THREAD_CPU_NS()	0
#endif

/*
 * The size of the blocks to fill from now on: that of the controller's
 * rung, which moves when a written block is learned from, so that the
 * first block filled after a move has the new rung's size.
 */
static void
sfc_level_block_full(struct pcapint_sfc_dumper *w)
{
	if (w->block_unit != 0)
		w->block_full = w->block_unit *
		    w->adapt->ladder->rungs[w->adapt->rung].scale;
}

int
pcapint_sfc_level_init(struct pcapint_sfc_dumper *w,
    const pcap_dump_options_t *opts, int offline, char *errbuf)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int i, scale;

	w->level = opts->level;
	w->block_size = opts->block_size;
	w->block_full = opts->block_size;
	w->block_unit = 0;
	/* A container with a single level has nothing to choose from. */
	if (!opts->adaptive || w->codec->enc_level == NULL)
		return (0);
	ladder = pcapint_sfc_adapt_ladder(w->name);
	if (ladder == NULL)
		return (0);
	/*
	 * Rungs may write larger blocks than the default (see the ladders
	 * in sf-compress-adapt.c); a size the caller set is kept at every
	 * rung.  The buffers hold the largest, and their pages are only
	 * touched once a rung fills them.  No block may exceed
	 * SFC_MAX_BLOCK, the largest that a reader accepts: the default
	 * of 1 MiB times the ladders' largest scale, 8, is half of it, and
	 * a ladder that went further would keep the default instead.
	 */
	scale = 1;
	for (i = 0; i < ladder->nrungs; i++) {
		if (ladder->rungs[i].scale > scale)
			scale = ladder->rungs[i].scale;
	}
	if (!opts->block_size_set && scale > 1 &&
	    opts->block_size <= SFC_MAX_BLOCK / scale) {
		w->block_unit = opts->block_size;
		w->block_size = opts->block_size * scale;
	}
	w->adapt = malloc(sizeof(*w->adapt));
	if (w->adapt == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (-1);
	}
	/*
	 * Copying a savefile loses no packet by waiting for the disk or
	 * the CPU, so storing blocks to keep up gains nothing: the floor
	 * is the fastest level that compresses.
	 */
	pcapint_sfc_adapt_init(w->adapt, ladder, offline ? 1 : 0);
	w->level = ladder->rungs[w->adapt->rung > 0 ? w->adapt->rung : 1].level;
	sfc_level_block_full(w);
	return (0);
}

void
pcapint_sfc_level_free(struct pcapint_sfc_dumper *w)
{
	free(w->adapt);
	w->adapt = NULL;
}

void
pcapint_sfc_level_plan(struct pcapint_sfc_dumper *w,
    struct pcapint_sfc_block *b)
{
	struct pcapint_sfc_adapt_choice choice;
	enum pcapint_sfc_block_result lagged;
	uint64_t n = w->blocks_begun++;
	int skip_tries;

	/*
	 * The skip sees the result of the block SFC_SKIP_LAG before this
	 * one, whatever the level, so that it decides the same with and
	 * without compression helpers.
	 */
	lagged = n >= SFC_SKIP_LAG ?
	    (enum pcapint_sfc_block_result)w->results[n % SFC_SKIP_LAG] :
	    SFC_BLOCK_UNKNOWN;
	skip_tries = pcapint_sfc_policy_try_codec(&w->skip, lagged, &w->skip);
	if (w->adapt == NULL) {
		b->level = w->level;
		b->rung = 0;
		b->how = PCAPINT_SFC_ADAPT_SKIP_DECIDES;
		b->try_codec = w->codec->compresses && skip_tries;
		return;
	}
	pcapint_sfc_adapt_choose(w->adapt, &choice);
	b->level = choice.level;
	b->rung = choice.rung;
	b->how = choice.how;
	switch (choice.how) {

	case PCAPINT_SFC_ADAPT_STORE_IT:
		b->try_codec = 0;
		break;

	case PCAPINT_SFC_ADAPT_PROBE:
		b->try_codec = 1;
		break;

	default:
		b->try_codec = skip_tries;
		break;
	}
}

void
pcapint_sfc_compress(const struct pcapint_sfc_codec *codec,
    struct pcapint_sfc_block *b)
{
	uint64_t start;

	b->stored = 0;
	b->ebuf[0] = '\0';
	b->res = b->out;
	b->cpu_ns = 0;
	b->cold = 0;
	if (b->try_codec && codec->enc_level != NULL &&
	    codec->enc_level(b->enc, b->level, b->ebuf) == -1) {
		b->out_len = -1;
		return;
	}
	start = SFC_THREAD_CPU_NS();
	b->out_len = codec->enc_block(b->enc, b->in, b->fill, b->out,
	    b->out_size, b->try_codec, &b->stored, &b->res, b->ebuf);
	b->cpu_ns = SFC_THREAD_CPU_NS() - start;
	/*
	 * The first block an encoder compresses at a level costs more
	 * than the level does: zstd sets its tables up for the new
	 * parameters, and the pages of larger tables are touched for the
	 * first time.  Measured on HTTP with 4 encoders, the first block
	 * each compressed at zstd level 1 took 2.0 to 3.0 ns per byte,
	 * the next ones 1.3 to 1.6.
	 */
	if (b->try_codec) {
		b->cold = b->warm_level != b->level;
		b->warm_level = b->level;
	}
}

void
pcapint_sfc_level_learn(struct pcapint_sfc_dumper *w,
    const struct pcapint_sfc_block *b, uint64_t write_ns)
{
	struct pcapint_sfc_adapt_sample s;
	uint64_t now;

	SFC_STORE(w->blocks_at[b->rung], w->blocks_at[b->rung] + 1);
	if (w->adapt == NULL)
		return;
	now = sfc_clock_ns(CLOCK_MONOTONIC);
	memset(&s, 0, sizeof(s));
	s.rung = b->rung;
	s.bytes_in = b->fill;
	s.bytes_out = (uint64_t)b->out_len;
	if (b->try_codec) {
		s.tried_in = b->fill;
		s.tried_out = (uint64_t)b->out_len;
	}
	s.cpu_ns = b->cpu_ns;
	s.cold = b->cold;
	s.write_ns = write_ns;
	s.wall_ns = w->last_sample_ns != 0 && now > w->last_sample_ns ?
	    now - w->last_sample_ns : 0;
	w->last_sample_ns = now;
	if (w->thr != NULL)
		pcapint_sfc_thr_load(w, &s);
	else
		s.threads = 1;
	pcapint_sfc_adapt_feed(w->adapt, &s);
	SFC_STORE(w->level_moves, w->adapt->moves);
	sfc_level_block_full(w);
}

void
pcapint_sfc_level_stats(struct pcapint_sfc_dumper *w,
    struct pcap_dump_stats *st)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int i, n;

	if (!w->codec->compresses)
		return;
	if (w->adapt == NULL) {
		st->nlevels = 1;
		st->levels[0] = w->level;
		st->blocks_at_level[0] = SFC_LOAD(w->blocks_at[0]);
		return;
	}
	/* The ladder never changes: only the counts need care. */
	ladder = w->adapt->ladder;
	st->adaptive = 1;
	st->level_changes = SFC_LOAD(w->level_moves);
	st->blocks_at_store = SFC_LOAD(w->blocks_at[PCAPINT_SFC_ADAPT_STORE]);
	n = 0;
	for (i = 1; i < ladder->nrungs && n < PCAP_DUMP_STATS_LEVELS; i++) {
		st->levels[n] = ladder->rungs[i].level;
		st->blocks_at_level[n] = SFC_LOAD(w->blocks_at[i]);
		n++;
	}
	st->nlevels = (int)n;
}
