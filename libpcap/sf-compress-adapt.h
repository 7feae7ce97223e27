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
 * sf-compress-adapt.h - choosing a compressed savefile's level block by
 * block, from what the writer measures; see sf-compress-adapt.c.
 */

#ifndef sf_compress_adapt_h
#define	sf_compress_adapt_h

#include <stdint.h>
#include <sys/types.h>

/*
 * A ladder is a codec's levels ordered from the cheapest to the most
 * thorough (their rungs are in sf-compress-adapt.c).  Rung 0 of every ladder stores
 * blocks as they are.  The cost and gain of each rung only serve to
 * guess how a rung that has not been tried recently would do, from how
 * the current one does.
 */
#define	PCAPINT_SFC_ADAPT_STORE		0
#define	PCAPINT_SFC_ADAPT_MAX_RUNGS	8

/*
 * On rung 0, the codec is run on one block in this many (16 MiB of
 * 1 MiB blocks), to see whether compressing pays again.
 */
#define	PCAPINT_SFC_ADAPT_PROBE_EVERY	16

struct pcapint_sfc_adapt_rung {
	int	level;		/* the codec's level; unused on rung 0 */
	double	cost;		/* ns of one CPU per input byte */
	double	gain;		/* 1 - output bytes / input bytes */
	u_int	scale;		/* blocks at this rung are this many times
				   the block size the options set, unless
				   they set it explicitly */
};

struct pcapint_sfc_adapt_ladder {
	u_int	nrungs;		/* at most PCAPINT_SFC_ADAPT_MAX_RUNGS */
	u_int	start;		/* the rung to begin with */
	const struct pcapint_sfc_adapt_rung *rungs;
};

/*
 * What the writer measured for a block once it was written (or for a
 * few blocks written at the same rung, added up).  Times are in
 * nanoseconds; the caller takes them with clock_gettime().
 */
struct pcapint_sfc_adapt_sample {
	u_int	rung;		/* the rung the block was compressed at */
	uint64_t bytes_in;	/* uncompressed bytes in the block */
	uint64_t bytes_out;	/* bytes written for it */
	uint64_t tried_in;	/* of bytes_in, those the codec was run on */
	uint64_t tried_out;	/* what the codec made of them */
	uint64_t cpu_ns;	/* CPU time of the thread that compressed it,
				   spent in the codec (CLOCK_THREAD_CPUTIME_ID) */
	uint64_t write_ns;	/* time spent in write() for it */
	uint64_t wall_ns;	/* wall-clock time since the previous sample */
	uint64_t backlog;	/* bytes waiting in the ring after it */
	uint64_t ring_size;	/* the ring's size; 0 without a ring */
	u_int	threads;	/* threads that compress: writer and helpers */
	u_int	cpus;		/* CPUs they may run on; 0: one each */
	uint64_t producer_ns;	/* CPU time of the thread that hands the
				   writer its records, since the previous
				   sample; 0 if not known */
	int	cold;		/* the codec ran at a level new to its
				   encoder: cpu_ns is not what the level
				   costs */
};

/*
 * How to write the next block: at which rung, and whether the
 * incompressible-block skip decides if the codec is run on it.
 */
#define	PCAPINT_SFC_ADAPT_STORE_IT	0	/* store it; don't run the codec */
#define	PCAPINT_SFC_ADAPT_SKIP_DECIDES	1	/* the skip decides, at rung's level */
#define	PCAPINT_SFC_ADAPT_PROBE		2	/* run the codec, whatever the skip says */

struct pcapint_sfc_adapt_choice {
	u_int	rung;
	int	level;		/* ladder->rungs[rung].level */
	int	how;		/* PCAPINT_SFC_ADAPT_STORE_IT, ... */
};

/*
 * The controller's state: the caller keeps it and passes it to every
 * call; the functions touch nothing else and never fail.  All fields
 * are private to sf-compress-adapt.c except rung and moves, which may
 * be read.
 */
struct pcapint_sfc_adapt_window {
	double	in, out, tried_in, tried_out, cpu, write, wall, producer;
};

struct pcapint_sfc_adapt_seen {
	double	cost;		/* smoothed ns per byte the codec was run on */
	double	gain;		/* smoothed 1 - out / in of those bytes */
	uint64_t when;		/* fed after the sample it was last updated
				   by; 0 never */
};

struct pcapint_sfc_adapt {
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int	floor;		/* the lowest rung the CPU may push it to */
	u_int	rung;		/* the current rung */
	uint64_t moves;		/* rung changes so far */

	struct pcapint_sfc_adapt_window slow;	/* samples at this rung */
	struct pcapint_sfc_adapt_window fast;
	u_int	samples;	/* samples at this rung since it was chosen */
	double	busy;		/* smoothed load of the last samples */
	u_int	threads;
	u_int	cpus;		/* at most threads */
	u_int	all_cpus;	/* the CPUs of the sample, 0: one each */
	uint64_t fed;		/* input bytes of the samples fed in all */

	struct pcapint_sfc_adapt_window recent;	/* the last samples at any
						   rung, for disk_y */
	double	disk_y;		/* ns in write() per byte, while it blocked */
	uint64_t disk_when;	/* fed after the sample that last updated
				   it; 0 never */

	double	backlog;	/* backlog / ring size, last sample */
	double	trend;		/* smoothed change of that per sample */
	int	have_backlog;

	int	votes;		/* > 0: samples in a row for up; < 0: down */
	int	trying;		/* rule 3 climbed to a rung it had not
				   measured lately, on trial */
	u_int	since_probe;	/* blocks stored on rung 0 since a probe */
	struct pcapint_sfc_adapt_seen seen[PCAPINT_SFC_ADAPT_MAX_RUNGS];
};

/*
 * Begin at ladder->start, never going below floor because compressing
 * costs too much CPU (blocks that do not compress may still take it to
 * rung 0).  A writer that loses nothing by waiting, such as one copying
 * a savefile, passes 1: it has no packets to lose, so only a codec can
 * make its output smaller, and storing would only make it faster.
 * Such a writer, when its samples give the producer's CPU time, picks
 * the most thorough rung that copies as fast as writing every byte as
 * it is would (see sf-compress-adapt.c).
 */
void	pcapint_sfc_adapt_init(struct pcapint_sfc_adapt *,
	    const struct pcapint_sfc_adapt_ladder *, u_int floor);

/*
 * The measurements of a written block.  May be called for blocks
 * compressed at a rung that is no longer the current one, as happens
 * while blocks chosen before a change are still being compressed.
 */
void	pcapint_sfc_adapt_feed(struct pcapint_sfc_adapt *,
	    const struct pcapint_sfc_adapt_sample *);

/*
 * How to write the next block to begin; call once per block.
 */
void	pcapint_sfc_adapt_choose(struct pcapint_sfc_adapt *,
	    struct pcapint_sfc_adapt_choice *);

/*
 * The ladders of the codecs whose level adapts (their encoders' ladder
 * field).
 */
extern const struct pcapint_sfc_adapt_ladder pcapint_sfc_zstd_ladder;
extern const struct pcapint_sfc_adapt_ladder pcapint_sfc_lz4_ladder;
extern const struct pcapint_sfc_adapt_ladder pcapint_sfc_gzip_ladder;

#endif
