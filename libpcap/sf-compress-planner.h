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
 * Compressed savefiles: the planner, which decides for each full block
 * whether the codec runs on it and at which level, and learns from
 * each written block what the next ones should be.
 *
 * The skip of sf-compress-policy.c, at every level, stores blocks
 * without trying the codec while the traffic does not compress.  Its
 * state is here, written only through pcapint_sfc_planner_plan() and
 * pcapint_sfc_planner_learn(), on the thread that writes.
 */
#ifdef SFC_ADAPTIVE_LEVEL
/*
 * When the level adapts, the level controller of sf-compress-adapt.c
 * picks the rung of the codec's ladder from what the writer measured,
 * which pcapint_sfc_planner_measure() hands it.
 */
#endif

#ifndef sf_compress_planner_h
#define	sf_compress_planner_h

#include <stdint.h>

#include "sf-compress-block.h"
#include "sf-compress-options.h"
#include "sf-compress-policy.h"
#ifdef SFC_ADAPTIVE_LEVEL
#include "sf-compress-adapt.h"
#endif

struct pcapint_sfc_planner {
	const struct pcapint_sfc_encoder *codec;
	int	level;		/* the level to start at */
	size_t	block_size;	/* the largest block: what buffers hold */
	size_t	block_full;	/* the size of the blocks to fill now */
#ifdef SFC_ADAPTIVE_LEVEL
	size_t	block_unit;	/* the options' block size, which the
				   ladder's rungs multiply; 0: every
				   block is block_size */
#endif

	/* The skip: the results of the blocks written, SFC_SKIP_LAG late. */
	struct pcapint_sfc_skip skip;
	uint64_t planned;	/* blocks planned */
	uint64_t learned;	/* blocks learned from */
	u_char	results[SFC_SKIP_LAG];	/* block n's at n % SFC_SKIP_LAG */
#ifdef SFC_ADAPTIVE_LEVEL

	/* The controller, NULL at a fixed level. */
	struct pcapint_sfc_adapt *adapt;
	uint64_t last_sample_ns;	/* when the last block was learned */

	/*
	 * Read by other threads with SFC_LOAD(): the blocks written at
	 * each rung (at a fixed level, all of them at [0]) and the
	 * controller's moves.
	 */
	uint64_t blocks_at[PCAPINT_SFC_ADAPT_MAX_RUNGS];
	uint64_t level_moves;
#endif
};
#ifdef SFC_ADAPTIVE_LEVEL

/*
 * What the writer knows of its load when a block is written: the
 * backlog of its ring and the threads that compress (see struct
 * pcapint_sfc_adapt_sample); all 0 for a dumper without a writer
 * thread.
 */
struct pcapint_sfc_load {
	uint64_t backlog;
	uint64_t ring_size;
	u_int	threads;
	u_int	cpus;
	uint64_t producer_ns;
};
#endif

/*
 * Plan the blocks of a dumper opened with opts; offline is set for a
 * dumper whose records come from a savefile, which loses nothing by
 * waiting.  0, or -1 with errbuf filled in.
 */
extern int pcapint_sfc_planner_init(struct pcapint_sfc_planner *,
    const struct pcap_dump_options *opts, int offline, char *errbuf);
extern void pcapint_sfc_planner_free(struct pcapint_sfc_planner *);

/* How to write the next full block: try_codec and level. */
extern void pcapint_sfc_planner_plan(struct pcapint_sfc_planner *,
    struct pcapint_sfc_block *);

/* A planned block was written, in the order planned. */
extern void pcapint_sfc_planner_learn(struct pcapint_sfc_planner *,
    const struct pcapint_sfc_block *);
#ifdef SFC_ADAPTIVE_LEVEL

/*
 * Then what it cost: write() took write_ns, under load; block_full may
 * change.
 */
extern void pcapint_sfc_planner_measure(struct pcapint_sfc_planner *,
    const struct pcapint_sfc_block *, uint64_t write_ns,
    const struct pcapint_sfc_load *);

/* The levels and the blocks at each, for pcap_dump_get_stats(). */
extern void pcapint_sfc_planner_stats(struct pcapint_sfc_planner *,
    struct pcap_dump_stats *);
#endif

#endif
