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
 * sf-compress-adapt.c - choosing a compressed savefile's level block by
 * block.
 *
 * Why: no fixed level is right everywhere.  Into a disk that is the
 * bottleneck, a level that writes fewer bytes captures more packets;
 * when the CPU is the bottleneck, a faster level (or none) does.  Which
 * of the two limits a capture changes with the traffic, the disk and the
 * machine.  Shimizu et al. ("A New Method for High Speed Packet
 * Capturing with Compression") give the condition: compressing at
 * throughput Tc to a ratio r pays against a disk of throughput Td while
 * Tc > Td / (1 - r), that is, while the time to compress a byte and
 * write what is left of it is less than the time to write the byte.
 *
 * How: the writer measures, per block, the CPU time spent compressing
 * it, the time spent in write(), the sizes and the ring's backlog, and
 * this file turns them into the rung of a ladder of levels for the
 * next blocks.  Every block is an independent container frame, so the
 * level may change at any block and the file stays valid for every
 * reader.  Nothing here reads a clock or does I/O: the measurements
 * come in, a rung goes out, so it can be tested with made-up timings.
 *
 * The model.  Over a window of blocks at the current rung, per input
 * byte: x ns of CPU compressing, r bytes written, y ns in write() per
 * byte written and z ns of wall-clock time.  The disk is busy
 *	u_disk = r y / z
 * of the time, and the N threads that compress (the writer thread
 * compresses too, and blocks in write()) are busy
 *	u_threads = (x + r y) / (N z).
 * When the N threads may only run on C < N CPUs (a writer and its
 * helper pinned to one CPU take turns there), compressing alone keeps
 * those CPUs busy
 *	u_cpu = x / (C z),
 * a helper then adds overlap (it compresses while the writer waits in
 * write()), not a CPU.  The writer keeps up while the largest of these,
 * its load, is below 1.  At another rung, x and r change and y and z
 * stay; with one thread, a rung j has a lower load than rung k when
 * x_j + r_j y < x_k + r_k y, which for j = store (x = 0, r = 1) is
 * exactly Shimizu's condition.
 *
 * The measurements quoted in the rules below were made with blocks of
 * 256 KiB and the ladder measured with them, which had zstd levels 2
 * and 4 where the ladder for 1 MiB blocks has 3 and 5 (see the ladders
 * below): what they show is how the rules behave, not today's levels.
 *
 * The rules, evaluated at every block:
 *
 *  1. Saturated (the load of the last few blocks is at least
 *     PCAPINT_SFC_ADAPT_BUSY, or the ring holds a backlog of at least
 *     PCAPINT_SFC_ADAPT_BACKLOG_LOW, growing or not): one
 *     rung towards the rung with the lowest predicted load, if that is
 *     lower by PCAPINT_SFC_ADAPT_MARGIN.  Disk bound, that is up while
 *     the CPU has room; compression bound, that is down.  Looking past
 *     the next rung matters: zstd levels 1 and 2 write nearly the same,
 *     and a writer that only compared neighbours would stop at level 1
 *     when level 4 writes 11% less.  The margin is small, 4%, because
 *     the loads compared come from the same window, so the noise of
 *     the measurements mostly cancels out, while rungs differ by 3% to
 *     10% in bytes written; with 10%, a writer 60 MB/s into a 10 MB/s
 *     disk stops at zstd 2 and writes 9% more than at level 4.  A
 *     backlog that grows is urgent: the ring is filling, so every move
 *     is decided on the last 4 blocks, without waiting for agreement.
 *     A backlog that shrinks is not keeping up either: the writer
 *     drains it faster at the rung with the lowest load, and rule 2
 *     would take it down as soon as compressing took half of the CPU,
 *     to a rung that lets the backlog grow again.
 *
 *  2. Keeping up: down if compressing takes more than
 *     PCAPINT_SFC_ADAPT_CPU_HIGH of the compressing threads' time; up
 *     only towards a rung predicted to take at most
 *     PCAPINT_SFC_ADAPT_CPU_LOW of it, to leave the load below
 *     PCAPINT_SFC_ADAPT_SAFE and to write PCAPINT_SFC_ADAPT_SIZE_GAIN
 *     fewer bytes.  A disk that keeps up gains nothing in capture from
 *     a higher level, only a smaller file, and the CPU it costs may be
 *     the one the capture thread needs: the compression helpers run on
 *     the capture thread's CPUs.  A quarter of a CPU per compressing
 *     thread is a bound chosen with the numbers of the ladder for 256
 *     KiB blocks: at 1 Gb/s of HTTP (about 120 MB/s), zstd --fast=5
 *     takes 0.12 of a CPU, level 1 0.20, level 2 0.24, level 4 0.53; the
 *     writer settles on level 2, which writes 21% fewer bytes than
 *     --fast=5 for 0.12 of a CPU more, and not on level 4, which would
 *     write 8% fewer still for twice the CPU.  At 20 MB/s it climbs to
 *     level 4, and not to 6, which writes under 2% less.  Twice the
 *     bound to come down again leaves room for the noise and for a rung
 *     that costs more than predicted.
 *
 *  In both cases, a codec that saves less than 1/32 of what it is run
 *  on (as the skip judges a block) takes the writer down: rung 0 writes
 *  as much for less CPU.
 *
 *  3. Hysteresis: a move needs PCAPINT_SFC_ADAPT_HOLD_UP (up) or
 *     PCAPINT_SFC_ADAPT_HOLD_DOWN (down) blocks in a row that want it,
 *     one when the backlog grows; the first PCAPINT_SFC_ADAPT_WARMUP
 *     blocks compressed at a new rung only measure (blocks chosen before
 *     the move are still being written, and they are not counted); the
 *     first block each encoder compresses at a level is not counted at
 *     all, as its CPU time includes setting the level up (with 4
 *     encoders on HTTP, zstd level 1 took 2.0 to 3.0 ns per byte on
 *     each one's first block, 1.3 to 1.6 on the next: counted, those 4
 *     made the level look a quarter dearer in the first 12 blocks,
 *     which it is judged by); the thresholds for going up and down are
 *     apart (CPU_LOW and CPU_HIGH, SAFE and BUSY, MARGIN, COPY_UP and
 *     COPY_DOWN); and what a rung did when last tried is remembered for
 *     PCAPINT_SFC_ADAPT_STALE bytes of input, so that a rung that turned
 *     out worse than predicted is not tried again at once.
 *
 *  Copying a savefile is another matter: nothing is lost by waiting,
 *  the writer's ring is always full (the reading waits for room), and
 *  how fast the copy goes is up to the writer.  Rules 1 and 2 take it
 *  to the fastest codec, as rule 1 cannot tell what is fast enough: the
 *  reading always outruns the writer.  What a user expects of a
 *  compressed copy is that it takes no longer than one without
 *  compression, which on one thread takes the producer's p ns of CPU
 *  per byte (reading the savefile, handing the records over) plus y ns
 *  in write() per byte.  So when the samples give the producer's CPU
 *  time, a writer with a floor (one that loses nothing by waiting)
 *  follows rule 4 instead of rules 1 and 2:
 *
 *  4. Copying: up to the most thorough rung predicted to take at most
 *     PCAPINT_SFC_ADAPT_COPY_UP of the plain copy's time, down when the
 *     current rung takes more than PCAPINT_SFC_ADAPT_COPY_DOWN of it.
 *     The copy's time per byte at a rung is the largest of the
 *     producer's p, the compressing threads' (x + r y) / N, the
 *     writer's r y and the CPUs' (p + x + r y) / C, C counting all the
 *     CPUs the process may use, as the producer shares them.  These are
 *     CPU times and time in write(), not the copy's pace, which the
 *     writer itself sets: judged by wall-clock time, a writer that
 *     compressed harder would slow the reading down and find the rest
 *     of its load lighter.  The full ring is no emergency here: moves
 *     wait for agreement as rule 3 says.  Measured on 2 CPUs, copying
 *     200 MB of a real HTTP trace to the page cache, where the plain
 *     copy took 0.27 s (p 0.4 ns, y 0.8 ns) and stock tcpdump 0.32 to
 *     0.48 s: fixed, zstd -5 wrote 0.191 of the bytes at 0.21 s, level
 *     1 0.132 at 0.25 s, level 2 0.127 at 0.27 s, level 4 0.125 at
 *     0.50 s; rules 1 and 2 stayed at -5, and rule 4 settles between
 *     levels 1 and 2 (0.131 to 0.135 of the bytes in 0.22 to 0.24 s).
 *     Onto a disk slower than the codecs, the plain copy waits for the
 *     disk, and the rule climbs as long as a rung writes fewer bytes
 *     (PCAPINT_SFC_ADAPT_SIZE_GAIN): zstd 4.  The 15% between the two
 *     bounds is the noise of the producer's and write()'s times from
 *     one window to the next.
 *
 *     A rung not measured for PCAPINT_SFC_ADAPT_STALE bytes is
 *     predicted from the current one by the ladder's costs, which were
 *     measured on another machine and other traffic: on this one level 1
 *     cost 1.0 to 1.4 times what -1 did, from one copy to the next,
 *     where the ladder of the time said 1.31 (the one for 1 MiB blocks
 *     says 1.10).  The prediction of the next rung up
 *     then fell either side of the plain copy's time by chance, and 3
 *     copies in 30 stayed at -1 (0.169 of the bytes) where level 1
 *     copied faster than the plain copy.  So the next rung up, when
 *     not measured lately, is tried as soon as it is predicted within
 *     COPY_DOWN; on trial it is left when it takes more than COPY_UP of
 *     the plain copy's time, and after PCAPINT_SFC_ADAPT_WARMUP +
 *     PCAPINT_SFC_ADAPT_HOLD_UP blocks without that it has the usual
 *     band.  What it did is remembered (rule 3), so a trial that
 *     failed is not made again while that is trusted.  In 50 copies
 *     alternated with 50 without trials and 50 before the first blocks
 *     at a level were left out (rule 3), 1 wrote more than 0.14 of the
 *     bytes, against 9 and 14; the median was 0.134 in all three.
 *
 * The incompressible-block skip of the dumper and this controller
 * compose as two layers: the controller picks the rung for a block; on
 * rung 0 the block is stored; on any other rung the skip decides as it
 * does at a fixed level whether the codec is run on the block.  The
 * measurements say which blocks the codec was run on (tried_in), so
 * the cost per byte and the gain are those of the codec, not diluted by
 * stored blocks.  When the codec saves nothing, the skip makes that
 * cheap within a few blocks and the controller then descends to rung 0,
 * where it runs the codec on one block in PCAPINT_SFC_ADAPT_PROBE_EVERY
 * (a probe, which the skip must not veto) to see when the traffic
 * compresses again.  Blocks stored because the controller chose rung 0
 * tell nothing about the traffic: the skip must not count them.
 */

#include <config.h>

#include "ftmacros.h"	/* u_int with -std=c99 */

#include <stddef.h>
#include <string.h>

#include "sf-compress-adapt.h"

/* The load above which the writer is saturated. */
#define	PCAPINT_SFC_ADAPT_BUSY		0.85
/* The load a move made while keeping up may lead to, at most. */
#define	PCAPINT_SFC_ADAPT_SAFE		0.70
/* How much lower a saturated writer's load must be predicted to move. */
#define	PCAPINT_SFC_ADAPT_MARGIN	0.04
/* Share of the compressing threads' time: climb below, descend above. */
#define	PCAPINT_SFC_ADAPT_CPU_LOW	0.25
#define	PCAPINT_SFC_ADAPT_CPU_HIGH	0.50
/* Fewer bytes a climb made while keeping up must write. */
#define	PCAPINT_SFC_ADAPT_SIZE_GAIN	0.03
/*
 * Share of the plain copy's time a copy may take: climb below, descend
 * above.
 */
#define	PCAPINT_SFC_ADAPT_COPY_UP	1.00
#define	PCAPINT_SFC_ADAPT_COPY_DOWN	1.15
/* A codec that saves less than this does not compress the traffic. */
#define	PCAPINT_SFC_ADAPT_MIN_GAIN	(1.0 / 32)

/*
 * Blocks measured at a new rung before it is judged: the dumper has up
 * to 4 blocks in flight (being filled, compressed by two threads,
 * waiting for write()), and 4 more give a first average.  When the
 * backlog grows, 4 are enough.
 */
#define	PCAPINT_SFC_ADAPT_WARMUP	8
#define	PCAPINT_SFC_ADAPT_WARMUP_URGENT	4
/* Blocks in a row that must want a move. */
#define	PCAPINT_SFC_ADAPT_HOLD_UP	16
#define	PCAPINT_SFC_ADAPT_HOLD_DOWN	4

/*
 * The measurements are smoothed with exponential weights: 1/16 per
 * block for the decisions, which takes per-block noise of +-20% down to
 * about +-3% (the standard deviation shrinks by the square root of
 * w / (2 - w)); 1/4 when the backlog grows, to follow what happens now.
 * A rung's remembered cost and gain use 1/8.
 */
#define	PCAPINT_SFC_ADAPT_SLOW		(1.0 / 16)
#define	PCAPINT_SFC_ADAPT_FAST		(1.0 / 4)
#define	PCAPINT_SFC_ADAPT_SEEN		(1.0 / 8)

/*
 * The backlog grows when it is above 1/16 of the ring and went up on
 * average over the last few blocks; above half of the ring, it is
 * urgent whatever its trend.  With the default 128 MiB ring, 1/16 is 8
 * MiB, 8 blocks of 1 MiB: more than a writer that keeps up leaves
 * behind while it writes one (at most 4 blocks in flight, see WARMUP).
 * At zstd's rungs with 8 MiB blocks it is one block.  The blocks in
 * flight are out of the ring, and a writer that keeps up has a free
 * one to fill as records come, so it leaves less than a block behind:
 * a whole one means it is late.  In runs at 180k frames/s of a real
 * HTTP trace into a 5 MB/s disk, which wrote nearly all of their
 * blocks at zstd 3 and 5 in 8 MiB blocks, the level changed 3 or 4
 * times in 450 blocks.
 */
#define	PCAPINT_SFC_ADAPT_BACKLOG_LOW	(1.0 / 16)
#define	PCAPINT_SFC_ADAPT_BACKLOG_HIGH	(1.0 / 2)
#define	PCAPINT_SFC_ADAPT_TREND		(1.0 / 4)

/*
 * How long what a rung did is trusted: 1 GiB of input, whatever the
 * size of the blocks: 1024 blocks of 1 MiB, 128 of zstd's 8 MiB ones,
 * 131072 of the 8 KiB blocks that tcpdump -C 32k asks for.  Counted in
 * blocks, the memory of the 8 MiB rungs would last eight times as many
 * bytes, and that of small blocks a hundred times fewer.
 */
#define	PCAPINT_SFC_ADAPT_STALE		((uint64_t)1 << 30)

/*
 * What write() cost per byte while the disk was the limit, that is
 * while the writer spent at least half of the last few blocks' time
 * blocked in it (smoothed as when the backlog grows), is trusted for
 * 256 MiB of input (256 blocks of 1 MiB).  A rung that compresses
 * slower than the disk writes leaves the disk idle part of the time,
 * and its own write()s then find room in the pipe or the page cache and
 * return at once: measured, zstd level 4 on one CPU shared with the
 * capture thread saw 1 to 25 ns per byte written where level 2, one
 * rung down, saw 44 (a 20 MB/s disk, 50).  Judged on its own window,
 * the disk looked 2 to 40 times faster from the slower rung, the rung
 * below looked far cheaper than it is, and the writer went back and
 * forth between the two every 6 blocks (898 changes in 4M HTTP frames
 * at 330k frames/s) and lost 3.2% of the frames; with this memory and
 * adapt_disk_ns() it wrote 95% of the blocks at level 4, changed level
 * 51 times and lost none.  What the disk did when it was the limit is
 * what it will do again once a faster rung makes it so.
 */
#define	PCAPINT_SFC_ADAPT_DISK_STALE	((uint64_t)256 << 20)
#define	PCAPINT_SFC_ADAPT_DISK_BLOCKED	0.5

/*
 * The ladders.  Cost and gain measured through libpcap's own dumper by
 * a benchmark (pcap_dump() of 7.6 MB of generated HTTP frames into
 * 1 MiB blocks at each fixed level, no writer thread, CPU time of the
 * process, median of 10 runs of 3 on a shared 2-CPU machine), less what
 * the dumper costs without a codec (0.22 ns per byte), so that the
 * costs are of the codec call, which is what the dumper times.  Costs
 * are ns per input byte (1000 / MB/s).  Rung 0's cost is a memcpy().
 * What matters is how the rungs compare: the writer scales them by what
 * it measures.
 *
 * zstd levels 2 and 4 are left out: in 1 MiB blocks, level 2 writes
 * the same 0.186 as level 1, and level 4 the same 0.181 as level 3,
 * for more CPU.  Level 6 saves 0.3% of the input over level 5 for 20%
 * more CPU: it is the top, where only light traffic goes.  lz4's levels
 * from 3 on are its HC compressor, four times slower than level 1;
 * gzip levels 2 and 3 are within a few per cent of level 1.
 *
 * zstd's rungs from level 3 up write blocks of 8 MiB (eight times the
 * default block).  Every block starts without history, and in an 8 MiB
 * block most bytes have a full window behind them (2 MiB at levels 3
 * to 6 for blocks this large), so zstd finds repeats that a smaller
 * block cuts off.  Those rungs are where a writer goes when the disk,
 * not the CPU, is the limit, so what they save matters most there.
 * Measured with one thread, median of 3 runs, in 1, 4 and 8 MiB blocks:
 * on a real HTTP trace (20 MB of a web client fetching five pages),
 * level 3 wrote 0.046, 0.026 and 0.023 of it at 629, 559 and 441 MB/s,
 * level 5 0.045, 0.024 and 0.022 at 255, 273 and 244 MB/s, level 6
 * 0.044, 0.024 and 0.021 at 207, 234 and 206 MB/s.  Into a 5 MB/s disk
 * that trace is captured without loss at a higher rate in 8 MiB
 * blocks than in 4 MiB ones, as level 3 then writes less than level 5
 * did, for 38% less CPU.  On generated HTTP frames, whose repeats are
 * close, level 3 wrote 0.181, 0.180 and 0.179 at 292, 212 and
 * 228 MB/s, level 5 0.166, 0.164 and 0.164 at 83, 76 and 62 MB/s, so
 * the costs and gains above hold for every size within 25%, and the
 * writer measures what they are.  The lower rungs keep 1 MiB: they
 * are where the CPU is the limit, and there larger blocks cost more
 * than they save where they are slower, such as on data that does not
 * compress (levels 1 to 5 ran a third to a half slower on random bytes
 * in 4 MiB blocks, which no longer fit in the caches); lz4 ran a
 * quarter to a third slower in 4 MiB blocks on both kinds of HTTP for
 * 1-4% fewer bytes.  gzip's window is 32 KiB: larger blocks change
 * nothing for it.
 */
static const struct pcapint_sfc_adapt_rung zstd_rungs[] = {
	{ 0, 0.06, 0.0, 1 },
	{ -5, 2.12, 0.767, 1 },	/*  428 MB/s, 0.233 */
	{ -1, 2.57, 0.795, 1 },	/*  358 MB/s, 0.205 */
	{ 1, 2.82, 0.814, 1 },	/*  330 MB/s, 0.186 */
	{ 3, 4.18, 0.819, 8 },	/*  227 MB/s, 0.181 (1 MiB blocks) */
	{ 5, 11.3, 0.834, 8 },	/*   87 MB/s, 0.166 */
	{ 6, 13.6, 0.837, 8 },	/*   72 MB/s, 0.163 */
};

static const struct pcapint_sfc_adapt_rung lz4_rungs[] = {
	{ 0, 0.06, 0.0, 1 },
	{ 1, 2.26, 0.739, 1 },	/*  403 MB/s, 0.261 */
	{ 3, 9.56, 0.800, 1 },	/*  102 MB/s, 0.200 */
	{ 6, 15.7, 0.809, 1 },	/*   63 MB/s, 0.191 */
};

static const struct pcapint_sfc_adapt_rung gzip_rungs[] = {
	{ 0, 0.06, 0.0, 1 },
	{ 1, 8.86, 0.790, 1 },	/*  110 MB/s, 0.210 */
	{ 4, 14.2, 0.807, 1 },	/*   69 MB/s, 0.193 */
	{ 6, 21.6, 0.827, 1 },	/*   46 MB/s, 0.173 */
};

#define	NRUNGS(a)	((u_int)(sizeof(a) / sizeof((a)[0])))

/*
 * zstd begins at level -1, in the middle of its range: until a few
 * blocks are measured, neither the disk nor the CPU is known to be the
 * limit.  lz4 and gzip begin at level 1, their only fast level.
 */
static const struct pcapint_sfc_adapt_ladder ladders[] = {
	{ "zstd", NRUNGS(zstd_rungs), 2, zstd_rungs },
	{ "lz4", NRUNGS(lz4_rungs), 1, lz4_rungs },
	{ "gzip", NRUNGS(gzip_rungs), 1, gzip_rungs },
};

const struct pcapint_sfc_adapt_ladder *
pcapint_sfc_adapt_ladder(const char *codec)
{
	size_t i;

	for (i = 0; i < sizeof(ladders) / sizeof(ladders[0]); i++) {
		if (strcmp(ladders[i].codec, codec) == 0)
			return (&ladders[i]);
	}
	return (NULL);
}

/* What the writer would do at a rung, predicted from a window. */
struct adapt_load {
	double	cpu;		/* share of the CPUs the compressing threads
				   may use */
	double	load;		/* the busiest of the disk, the threads and
				   their CPUs */
	double	ratio;		/* bytes written per input byte */
	double	gain;		/* of the codec on the bytes it is run on */
	double	copy;		/* ns per input byte of a copy, rule 4; 0 if
				   the producer's time is not known */
	double	plain;		/* ... of a copy that writes every byte as it
				   is, on one thread */
};

void
pcapint_sfc_adapt_init(struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_ladder *ladder, u_int floor)
{
	memset(a, 0, sizeof(*a));
	a->ladder = ladder;
	a->floor = floor < ladder->nrungs ? floor : ladder->nrungs - 1;
	a->rung = ladder->start < ladder->nrungs ? ladder->start :
	    ladder->nrungs - 1;
	if (a->rung < a->floor)
		a->rung = a->floor;
	a->threads = 1;
	a->cpus = 1;
}

/* Whether what rung j did is recent enough to predict from. */
static int
adapt_seen_recently(const struct pcapint_sfc_adapt *a, u_int j)
{
	return (a->seen[j].when != 0 &&
	    a->fed - a->seen[j].when < PCAPINT_SFC_ADAPT_STALE);
}

/*
 * The cost per byte and the gain of the codec at rung j, seen from the
 * window w of rung k: what rung j did if that is recent; otherwise what
 * the current rung does (or, on rung 0, what rung 1 last did), scaled
 * by the ladder's measured costs and gains.
 */
static void
adapt_estimate(const struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_window *w, u_int k, u_int j,
    double *cost, double *gain)
{
	const struct pcapint_sfc_adapt_rung *rungs = a->ladder->rungs;
	const struct pcapint_sfc_adapt_seen *s = &a->seen[j];
	double c, g;
	u_int ref;

	if (adapt_seen_recently(a, j)) {
		*cost = s->cost;
		*gain = s->gain;
		return;
	}
	if (k > 0 && w->tried_in > 0) {
		ref = k;
		c = w->cpu / w->tried_in;
		g = 1.0 - w->tried_out / w->tried_in;
	} else if (k > 0 && a->seen[k].when != 0) {
		ref = k;
		c = a->seen[k].cost;
		g = a->seen[k].gain;
	} else if (a->seen[1].when != 0) {
		ref = 1;
		c = a->seen[1].cost;
		g = a->seen[1].gain;
	} else {
		*cost = rungs[j].cost;
		*gain = rungs[j].gain;
		return;
	}
	*cost = c * rungs[j].cost / rungs[ref].cost;
	/*
	 * Scale what the codec saves, not what it leaves: a codec that
	 * saves 1% of random payload at one level does not save 20% at
	 * the next.
	 */
	if (g > 0)
		g = g * rungs[j].gain / rungs[ref].gain;
	*gain = g < 0.999 ? g : 0.999;
}

/*
 * ns of the disk's time per byte written, from time blocked in write(),
 * the CPU time spent compressing and the bytes written.  Where the
 * compressing threads take turns on fewer CPUs than there are threads,
 * the helpers compress while the writer waits in write(), and the writer
 * compresses its share of the blocks itself (1 of every N threads', as
 * sf-compress-jobs.c hands them out): while the helpers compress, the
 * disk takes what the last write() left in the pipe or the page cache,
 * and the time blocked in write() alone would make the disk look that
 * much faster.
 */
static double
adapt_disk_ns(const struct pcapint_sfc_adapt *a, double write, double cpu,
    double out)
{
	if (out <= 0)
		return (0);
	if (a->cpus < a->threads && write > 0)
		write += cpu * (a->threads - 1) / a->threads;
	return (write / out);
}

/*
 * Predict the load at rung j from the window w of the current rung k;
 * 0 if the window says nothing yet.
 */
static int
adapt_predict(const struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_window *w, u_int j,
    struct adapt_load *p)
{
	const struct pcapint_sfc_adapt_rung *rungs = a->ladder->rungs;
	u_int k = a->rung;
	double n = a->threads, c = a->cpus, tried, x, r, y, z, disk, threads;
	double cpu, prod, wr, all;
	double cost, gain;

	if (w->in <= 0 || w->wall <= 0)
		return (0);
	y = adapt_disk_ns(a, w->write, w->cpu, w->out);
	if (a->disk_when != 0 &&
	    a->fed - a->disk_when < PCAPINT_SFC_ADAPT_DISK_STALE &&
	    a->disk_y > y)
		y = a->disk_y;
	z = w->wall / w->in;
	if (j == k) {
		x = w->cpu / w->in;
		r = w->out / w->in;
		/*
		 * While the skip stores most blocks, the window may hold
		 * none the codec was run on; what the last ones did is
		 * then the best guess.
		 */
		if (w->tried_in > 0)
			gain = 1.0 - w->tried_out / w->tried_in;
		else if (k > 0 && a->seen[k].when != 0)
			gain = a->seen[k].gain;
		else
			gain = rungs[k].gain;
	} else if (j == PCAPINT_SFC_ADAPT_STORE) {
		x = rungs[0].cost;
		r = 1;
		gain = 0;
	} else {
		adapt_estimate(a, w, k, j, &cost, &gain);
		/*
		 * The skip runs the codec on the same share of the
		 * blocks as now; from rung 0, on all of them.
		 */
		tried = k > 0 && w->tried_in > 0 ? w->tried_in / w->in : 1;
		x = tried * cost + (1 - tried) * rungs[0].cost;
		r = 1 - tried * gain;
	}
	disk = r * y / z;
	threads = (x + r * y) / (n * z);
	cpu = x / (c * z);
	p->cpu = cpu;
	p->load = disk > threads ? disk : threads;
	if (cpu > p->load)
		p->load = cpu;
	p->ratio = r;
	p->gain = gain;
	p->copy = 0;
	p->plain = 0;
	if (w->producer > 0 && w->out > 0) {
		/*
		 * Time in write() as measured: what the helpers compress
		 * while the writer waits in write() (adapt_disk_ns) is
		 * hidden disk time only when a disk is the limit, and
		 * onto a slow disk write() itself shows the disk's time.
		 */
		wr = w->write / w->out;
		prod = w->producer / w->in;
		all = a->all_cpus > 0 ? a->all_cpus : n + 1;
		p->copy = prod;
		if ((x + r * wr) / n > p->copy)
			p->copy = (x + r * wr) / n;
		if (r * wr > p->copy)
			p->copy = r * wr;
		if ((prod + x + r * wr) / all > p->copy)
			p->copy = (prod + x + r * wr) / all;
		p->plain = prod + wr;
	}
	return (1);
}

static void
adapt_move(struct pcapint_sfc_adapt *a, u_int rung)
{
	a->trying = 0;
	a->rung = rung;
	a->samples = 0;
	memset(&a->slow, 0, sizeof(a->slow));
	memset(&a->fast, 0, sizeof(a->fast));
	a->votes = 0;
	a->since_probe = 0;
	a->moves++;
}

/*
 * Whether rule 4 decides: a writer with a floor, which loses nothing by
 * waiting, that knows what the producer's CPU time was.
 */
static int
adapt_copying(const struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_window *w)
{
	return (a->floor > 0 && w->producer > 0);
}

/*
 * Which way rule 4 wants to go, with the loads at every rung; *trial
 * is set when the way up is a trial of a rung not measured lately.
 */
static int
adapt_want_copy(const struct pcapint_sfc_adapt *a,
    const struct adapt_load *at, u_int n, int *trial)
{
	u_int k = a->rung, j;
	const struct adapt_load *cur = &at[k];
	double down;

	*trial = 0;
	down = a->trying ? PCAPINT_SFC_ADAPT_COPY_UP :
	    PCAPINT_SFC_ADAPT_COPY_DOWN;
	if (k > a->floor && cur->copy > cur->plain * down &&
	    at[k - 1].copy < cur->copy)
		return (-1);
	for (j = n - 1; j > k; j--) {
		if (at[j].gain < PCAPINT_SFC_ADAPT_MIN_GAIN ||
		    at[j].ratio > cur->ratio * (1 - PCAPINT_SFC_ADAPT_SIZE_GAIN))
			continue;
		if (at[j].copy <= at[j].plain * PCAPINT_SFC_ADAPT_COPY_UP)
			return (1);
		if (j == k + 1 && !adapt_seen_recently(a, j) &&
		    at[j].copy <= at[j].plain * PCAPINT_SFC_ADAPT_COPY_DOWN) {
			*trial = 1;
			return (1);
		}
	}
	return (0);
}

/*
 * Which way rules 1, 2 and 4 want to go: -1, 0 or 1; *trial as
 * adapt_want_copy() sets it.
 */
static int
adapt_want(const struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_window *w, int urgent, int *trial)
{
	u_int k = a->rung, n = a->ladder->nrungs, j, target;
	struct adapt_load at[PCAPINT_SFC_ADAPT_MAX_RUNGS];
	const struct adapt_load *cur = &at[k];

	*trial = 0;
	memset(at, 0, sizeof(at));
	for (j = 0; j < n; j++) {
		if (!adapt_predict(a, w, j, &at[j]))
			return (0);
	}

	/* Below the floor only because nothing compressed. */
	if (k < a->floor)
		return (at[k + 1].gain >= PCAPINT_SFC_ADAPT_MIN_GAIN);

	/* Nothing to gain from the codec: rung 0 does as well for less. */
	if (k > 0 && cur->gain < PCAPINT_SFC_ADAPT_MIN_GAIN)
		return (-1);

	/* Copying, with the producer's time known: rule 4 alone. */
	if (adapt_copying(a, w))
		return (adapt_want_copy(a, at, n, trial));

	/*
	 * Saturated: one rung towards the rung with the lowest load, if
	 * that is lower enough.  Looking further than the next rung
	 * matters: zstd levels 1 and 3 write nearly the same, and a
	 * writer stuck at level 1 for that would never reach level 5.
	 */
	if (urgent || a->busy >= PCAPINT_SFC_ADAPT_BUSY ||
	    (a->have_backlog && a->backlog >= PCAPINT_SFC_ADAPT_BACKLOG_LOW)) {
		target = k;
		for (j = a->floor; j < n; j++) {
			if (at[j].load < at[target].load)
				target = j;
		}
		if (at[target].load >= cur->load *
		    (1 - PCAPINT_SFC_ADAPT_MARGIN))
			return (0);
		return (target > k ? 1 : -1);
	}

	/* Keeping up. */
	if (k > a->floor && cur->cpu > PCAPINT_SFC_ADAPT_CPU_HIGH &&
	    at[k - 1].load < PCAPINT_SFC_ADAPT_SAFE)
		return (-1);
	for (j = n - 1; j > k; j--) {
		if (at[j].cpu <= PCAPINT_SFC_ADAPT_CPU_LOW &&
		    at[j].load < PCAPINT_SFC_ADAPT_SAFE &&
		    at[j].gain >= PCAPINT_SFC_ADAPT_MIN_GAIN &&
		    at[j].ratio <= cur->ratio * (1 - PCAPINT_SFC_ADAPT_SIZE_GAIN))
			return (1);
	}
	return (0);
}

static void
adapt_add(struct pcapint_sfc_adapt_window *w, double weight,
    const struct pcapint_sfc_adapt_sample *s)
{
	double keep = 1 - weight;

	w->in = w->in * keep + (double)s->bytes_in * weight;
	w->out = w->out * keep + (double)s->bytes_out * weight;
	w->tried_in = w->tried_in * keep + (double)s->tried_in * weight;
	w->tried_out = w->tried_out * keep + (double)s->tried_out * weight;
	w->cpu = w->cpu * keep + (double)s->cpu_ns * weight;
	w->write = w->write * keep + (double)s->write_ns * weight;
	w->wall = w->wall * keep + (double)s->wall_ns * weight;
	w->producer = w->producer * keep + (double)s->producer_ns * weight;
}

void
pcapint_sfc_adapt_feed(struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_sample *s)
{
	struct pcapint_sfc_adapt_seen *seen;
	double b, c, d, g, t, weight;
	int urgent, want, trial;

	if (s->bytes_in == 0)
		return;
	a->fed += s->bytes_in;
	a->threads = s->threads > 0 ? s->threads : 1;
	a->cpus = s->cpus > 0 && s->cpus < a->threads ? s->cpus : a->threads;
	a->all_cpus = s->cpus;

	if (s->ring_size > 0) {
		b = (double)s->backlog / (double)s->ring_size;
		if (b > 1)
			b = 1;
		if (a->have_backlog)
			a->trend += (b - a->backlog - a->trend) *
			    PCAPINT_SFC_ADAPT_TREND;
		a->backlog = b;
		a->have_backlog = 1;
	} else {
		a->backlog = 0;
		a->trend = 0;
		a->have_backlog = 0;
	}

	/*
	 * A block that was the first its encoder compressed at a level
	 * paid for setting the level up; its times say nothing about the
	 * level, nor, as they include its CPU time, about the disk.
	 */
	if (s->rung >= a->ladder->nrungs || s->cold)
		return;
	if (s->rung > 0 && s->tried_in > 0 && s->tried_out <= 2 * s->tried_in) {
		seen = &a->seen[s->rung];
		c = (double)s->cpu_ns / (double)s->tried_in;
		g = 1.0 - (double)s->tried_out / (double)s->tried_in;
		if (seen->when == 0) {
			seen->cost = c;
			seen->gain = g;
		} else {
			seen->cost += (c - seen->cost) * PCAPINT_SFC_ADAPT_SEEN;
			seen->gain += (g - seen->gain) * PCAPINT_SFC_ADAPT_SEEN;
		}
		seen->when = a->fed;
	}
	/*
	 * Whether the disk was the limit is judged over the last few
	 * blocks, not one.  A writer and a helper that take turns on one
	 * CPU, slower than the disk, hand it a block, then the next 2 ms
	 * later, and write() takes both at once: the disk took the last
	 * one while both compressed.  The second block spent all of its
	 * 2 ms in write(); taken alone, it made the disk look two or three
	 * times as fast as it is.  Measured, 68 MB/s of generated HTTP
	 * frames into a 10 MB/s pipe, more than any level keeps up with,
	 * where zstd 5 loses fewer frames than zstd 3: the writer went
	 * from one to the other 10 to 14 times in under 190 blocks and
	 * lost 3.2% to 4.1% of the frames.  Judged over the last few
	 * blocks, it changed level 3 to 5 times, most of them on its way
	 * up in the first 40 blocks, and lost 0.8% to 2.3% (a median of
	 * 1.4% in six runs), where zstd 5 fixed lost 1.8% to 2.0%.
	 */
	adapt_add(&a->recent, PCAPINT_SFC_ADAPT_FAST, s);
	if (a->recent.out > 0 && a->recent.wall > 0 && a->recent.write >=
	    PCAPINT_SFC_ADAPT_DISK_BLOCKED * a->recent.wall) {
		d = adapt_disk_ns(a, a->recent.write, a->recent.cpu,
		    a->recent.out);
		if (a->disk_when == 0)
			a->disk_y = d;
		else
			a->disk_y += (d - a->disk_y) * PCAPINT_SFC_ADAPT_SEEN;
		a->disk_when = a->fed;
	}
	if (s->rung != a->rung)
		return;

	/*
	 * How busy the writer was for this block, smoothed over the last
	 * few: the windows add up times, so after a quiet spell their
	 * long waits would hide a writer that has just become saturated
	 * for dozens of blocks.
	 */
	if (s->wall_ns > 0) {
		d = (double)s->write_ns / (double)s->wall_ns;
		t = ((double)s->cpu_ns + (double)s->write_ns) /
		    ((double)a->threads * (double)s->wall_ns);
		if (t > d)
			d = t;
		t = (double)s->cpu_ns / ((double)a->cpus * (double)s->wall_ns);
		if (t > d)
			d = t;
		a->busy += ((d < 2 ? d : 2) - a->busy) *
		    PCAPINT_SFC_ADAPT_FAST;
	}

	/* A plain average until there are enough for the weights. */
	a->samples++;
	weight = 1.0 / a->samples;
	adapt_add(&a->slow, weight > PCAPINT_SFC_ADAPT_SLOW ? weight :
	    PCAPINT_SFC_ADAPT_SLOW, s);
	adapt_add(&a->fast, weight > PCAPINT_SFC_ADAPT_FAST ? weight :
	    PCAPINT_SFC_ADAPT_FAST, s);

	/* A copy's ring is always full, and nothing is lost by it. */
	urgent = a->have_backlog && !adapt_copying(a, &a->slow) &&
	    (a->backlog >= PCAPINT_SFC_ADAPT_BACKLOG_HIGH ||
	    (a->backlog >= PCAPINT_SFC_ADAPT_BACKLOG_LOW && a->trend > 0));
	if (a->samples < (urgent ? PCAPINT_SFC_ADAPT_WARMUP_URGENT :
	    PCAPINT_SFC_ADAPT_WARMUP))
		return;
	want = adapt_want(a, urgent ? &a->fast : &a->slow, urgent, &trial);
	/* A trial that lasted this long without going down has passed. */
	if (a->trying && a->samples >= PCAPINT_SFC_ADAPT_WARMUP +
	    PCAPINT_SFC_ADAPT_HOLD_UP)
		a->trying = 0;
	if (want > 0) {
		a->votes = a->votes > 0 ? a->votes + 1 : 1;
		if (urgent || a->votes >= PCAPINT_SFC_ADAPT_HOLD_UP) {
			adapt_move(a, a->rung + 1);
			a->trying = trial;
		}
	} else if (want < 0) {
		a->votes = a->votes < 0 ? a->votes - 1 : -1;
		if (urgent || -a->votes >= PCAPINT_SFC_ADAPT_HOLD_DOWN)
			adapt_move(a, a->rung - 1);
	} else
		a->votes = 0;
}

void
pcapint_sfc_adapt_choose(struct pcapint_sfc_adapt *a,
    struct pcapint_sfc_adapt_choice *c)
{
	const struct pcapint_sfc_adapt_ladder *l = a->ladder;

	if (a->rung == PCAPINT_SFC_ADAPT_STORE && l->nrungs > 1 &&
	    ++a->since_probe >= PCAPINT_SFC_ADAPT_PROBE_EVERY) {
		a->since_probe = 0;
		c->rung = 1;
		c->level = l->rungs[1].level;
		c->how = PCAPINT_SFC_ADAPT_PROBE;
		return;
	}
	c->rung = a->rung;
	c->level = l->rungs[a->rung].level;
	c->how = a->rung == PCAPINT_SFC_ADAPT_STORE ?
	    PCAPINT_SFC_ADAPT_STORE_IT : PCAPINT_SFC_ADAPT_SKIP_DECIDES;
}
