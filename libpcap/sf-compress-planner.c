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
 * Compressed savefiles: the planner, see sf-compress-planner.h.
 *
 * At a fixed level ("zstd:3"), the skip alone decides whether the
 * codec runs.
 */
#ifdef SFC_ADAPTIVE_LEVEL
/*
 * When the level adapts ("zstd:auto", and "zstd" or the default with
 * no level), the controller first picks the rung, from what is
 * measured of every block written: the CPU time the codec took on the
 * thread that ran it, the time spent in write(), the wall-clock time
 * between blocks, the bytes in and out and the writer's load.  Every
 * block is a container frame of its own, so the level may change at
 * any block and the file stays valid for every reader.
 */
#endif

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pcap-int.h"
#include "sf-compress-planner.h"
#ifdef SFC_ADAPTIVE_LEVEL

/*
 * The size of the blocks to fill from now on: that of the controller's
 * rung, which moves when a written block is measured, so that the
 * first block filled after a move has the new rung's size.
 */
static void
sfc_planner_block_full(struct pcapint_sfc_planner *pl)
{
	if (pl->block_unit != 0)
		pl->block_full = pl->block_unit *
		    pl->adapt->ladder->rungs[pl->adapt->rung].scale;
}

/*
 * The level controller of a dumper whose options let the level adapt,
 * if its codec has a ladder of levels.
 */
static int
sfc_planner_adapt_init(struct pcapint_sfc_planner *pl,
    const struct pcap_dump_options *opts, int offline, char *errbuf)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int i, scale;

	/* A container with a single level has nothing to choose from. */
	if (!opts->adaptive || pl->codec->enc_level == NULL)
		return (0);
	ladder = pl->codec->ladder;
	if (ladder == NULL)
		return (0);
	/*
	 * Rungs may write larger blocks than the default (see the ladders
	 * in the codecs' files); a size the caller set is kept at every
	 * rung.  The buffers hold the largest, and their pages are only
	 * touched once a rung fills them.  No block may exceed
	 * SFC_MAX_BLOCK, the largest that a reader accepts; a ladder
	 * that would go further keeps the default size.
	 */
	scale = 1;
	for (i = 0; i < ladder->nrungs; i++) {
		if (ladder->rungs[i].scale > scale)
			scale = ladder->rungs[i].scale;
	}
	if (!opts->block_size_set && scale > 1 &&
	    opts->block_size <= SFC_MAX_BLOCK / scale) {
		pl->block_unit = opts->block_size;
		pl->block_size = opts->block_size * scale;
	}
	pl->adapt = malloc(sizeof(*pl->adapt));
	if (pl->adapt == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (-1);
	}
	/*
	 * Copying a savefile loses no packet by waiting for the disk or
	 * the CPU, so storing blocks to keep up gains nothing: the floor
	 * is the fastest level that compresses.
	 */
	pcapint_sfc_adapt_init(pl->adapt, ladder, offline ? 1 : 0);
	pl->level = ladder->rungs[pl->adapt->rung > 0 ?
	    pl->adapt->rung : 1].level;
	sfc_planner_block_full(pl);
	return (0);
}
#endif

int
pcapint_sfc_planner_init(struct pcapint_sfc_planner *pl,
    const struct pcap_dump_options *opts, int offline, char *errbuf)
{
	memset(pl, 0, sizeof(*pl));
	pl->codec = opts->codec;
	pl->level = opts->level;
	pl->block_size = opts->block_size;
	pl->block_full = opts->block_size;
#ifdef SFC_ADAPTIVE_LEVEL
	return (sfc_planner_adapt_init(pl, opts, offline, errbuf));
#else
	return (0);
#endif
}

void
pcapint_sfc_planner_free(struct pcapint_sfc_planner *pl)
{
#ifdef SFC_ADAPTIVE_LEVEL
	free(pl->adapt);
	pl->adapt = NULL;
#endif
}

void
pcapint_sfc_planner_plan(struct pcapint_sfc_planner *pl,
    struct pcapint_sfc_block *b)
{
#ifdef SFC_ADAPTIVE_LEVEL
	struct pcapint_sfc_adapt_choice choice;
#endif
	enum pcapint_sfc_block_result lagged;
	uint64_t n = pl->planned++;
	int skip_tries;

	/*
	 * The skip sees the result of the block SFC_SKIP_LAG before this
	 * one, whatever the level, so that it decides the same however
	 * many blocks are being compressed at once.
	 */
	lagged = n >= SFC_SKIP_LAG ?
	    (enum pcapint_sfc_block_result)pl->results[n % SFC_SKIP_LAG] :
	    SFC_BLOCK_UNKNOWN;
	skip_tries = pcapint_sfc_policy_try_codec(&pl->skip, lagged,
	    &pl->skip);
#ifdef SFC_ADAPTIVE_LEVEL
	if (pl->adapt == NULL) {
		b->rung = 0;
		b->plan = PCAPINT_SFC_ADAPT_SKIP_DECIDES;
	}
#endif
	b->level = pl->level;
	b->try_codec = pl->codec->compresses && skip_tries;
#ifdef SFC_ADAPTIVE_LEVEL
	if (pl->adapt == NULL)
		return;
	pcapint_sfc_adapt_choose(pl->adapt, &choice);
	b->level = choice.level;
	b->rung = choice.rung;
	b->plan = choice.how;
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
#endif
}

void
pcapint_sfc_planner_learn(struct pcapint_sfc_planner *pl,
    const struct pcapint_sfc_block *b)
{
	u_char result = SFC_BLOCK_UNKNOWN;

	if (pl->codec->compresses)
		result = (u_char)pcapint_sfc_policy_result(b->fill,
		    (size_t)b->out_len, b->stored);
#ifdef SFC_ADAPTIVE_LEVEL
	/*
	 * A block the controller chose to store tells the skip nothing
	 * about the traffic.
	 */
	if (b->plan == PCAPINT_SFC_ADAPT_STORE_IT)
		result = SFC_BLOCK_UNKNOWN;
#endif
	if (pl->codec->compresses)
		pl->results[pl->learned % SFC_SKIP_LAG] = result;
	pl->learned++;
}
#ifdef SFC_ADAPTIVE_LEVEL

void
pcapint_sfc_planner_measure(struct pcapint_sfc_planner *pl,
    const struct pcapint_sfc_block *b, uint64_t write_ns,
    const struct pcapint_sfc_load *load)
{
	struct pcapint_sfc_adapt_sample s;
	uint64_t now;

	SFC_STORE(pl->blocks_at[b->rung], pl->blocks_at[b->rung] + 1);
	if (pl->adapt == NULL)
		return;
	now = pcapint_sfc_clock_ns(CLOCK_MONOTONIC);
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
	s.wall_ns = pl->last_sample_ns != 0 && now > pl->last_sample_ns ?
	    now - pl->last_sample_ns : 0;
	pl->last_sample_ns = now;
	s.backlog = load->backlog;
	s.ring_size = load->ring_size;
	s.threads = load->threads > 0 ? load->threads : 1;
	s.cpus = load->cpus;
	s.producer_ns = load->producer_ns;
	pcapint_sfc_adapt_feed(pl->adapt, &s);
	SFC_STORE(pl->level_moves, pl->adapt->moves);
	sfc_planner_block_full(pl);
}

void
pcapint_sfc_planner_stats(struct pcapint_sfc_planner *pl,
    struct pcap_dump_stats *st)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int i, n;

	if (!pl->codec->compresses)
		return;
	if (pl->adapt == NULL) {
		st->nlevels = 1;
		st->levels[0] = pl->level;
		st->blocks_at_level[0] = SFC_LOAD(pl->blocks_at[0]);
		return;
	}
	/* The ladder never changes: only the counts need care. */
	ladder = pl->adapt->ladder;
	st->adaptive = 1;
	st->level_changes = SFC_LOAD(pl->level_moves);
	st->blocks_at_store = SFC_LOAD(pl->blocks_at[PCAPINT_SFC_ADAPT_STORE]);
	n = 0;
	for (i = 1; i < ladder->nrungs && n < PCAP_DUMP_STATS_LEVELS; i++) {
		st->levels[n] = ladder->rungs[i].level;
		st->blocks_at_level[n] = SFC_LOAD(pl->blocks_at[i]);
		n++;
	}
	st->nlevels = (int)n;
}
#endif
