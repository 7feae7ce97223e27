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
 * Compressed savefiles, writing: what other files call of the writer,
 * sf-compress-write.c.  The codecs' side of it (the encoders, the
 * store container, pcap_dump()'s and pcap_dump_flush()'s hooks) is
 * declared in sf-compress-encoder.h; this is the rest: a block and
 * its compression with one call of its codec, and the planner, for a
 * unit test that drives them with made-up blocks.  Everything else of
 * the writer is static.
 */

#ifndef sf_compress_write_h
#define	sf_compress_write_h

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "pcap-int.h"
#include "sf-compress-encoder.h"
#ifdef SFC_ADAPTIVE_LEVEL
#include "sf-compress-adapt.h"
#endif

/* The level of an encoder that has not run its codec yet. */
#define	SFC_COLD_LEVEL		INT_MIN

/*
 * A full block: the assembler's buffer, or one of the blocks that are
 * compressed side by side.  The block is the unit every stage of the
 * dumper passes on: the assembler fills it, the planner says how to
 * write it, the codec compresses it and the sink writes it, on
 * whichever threads run those stages.
 */
struct pcapint_sfc_block {
	u_char	*in;		/* the block */
	size_t	fill;
	uint64_t records;	/* records that end in it, for the accounting */

	/* How to write it, from the planner. */
	int	try_codec;	/* 0: store it without running the codec */
	int	level;		/* the codec's level */
#ifdef SFC_ADAPTIVE_LEVEL
	u_int	rung;		/* the level's rung on the ladder, or 0 */
	int	plan;		/* the planner's own note on its choice */
#endif

	/* Results, from pcapint_sfc_block_compress(). */
	ssize_t	out_len;	/* -1: the codec failed, ebuf says why */
	int	stored;		/* it went out as it came in */
	const u_char *res;	/* the block as it goes on disk */
	uint64_t cpu_ns;	/* CPU time the codec took */
	int	cold;		/* the codec ran at a level new to enc, and
				   cpu_ns includes setting that level up */
	char	ebuf[PCAP_ERRBUF_SIZE];

	/* Where to: the output buffer and the encoder. */
	u_char	*out;
	size_t	out_size;
	void	*enc;
	int	warm_level;	/* the level enc last ran its codec at, or
				   SFC_COLD_LEVEL */
};

/*
 * Compress a planned block with one call of the codec, on any thread,
 * timing the call with the CPU clock of that thread.
 */
extern void pcapint_sfc_block_compress(const struct pcapint_sfc_encoder *,
    struct pcapint_sfc_block *);

/*
 * The planner, which decides for each full block whether the codec
 * runs on it and at which level, and learns from each written block
 * what the next ones should be.
 *
 * The decision for block n is taken from the results of blocks up to
 * n - SFC_SKIP_LAG only, so that it is the same however many blocks
 * are being compressed at once, and the same input gives the same file
 * either way.
 */
#define	SFC_SKIP_LAG	4

/* What the skip remembers from one block to the next. */
struct pcapint_sfc_skip {
	u_int	stored_run;	/* incompressible blocks in a row */
	u_int	skip_count;	/* blocks stored while skipping */
};

/*
 * The planner's state, written only through pcapint_sfc_planner_plan()
 * and pcapint_sfc_planner_learn(), on the thread that writes.
 */
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
#endif

#endif
