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
 * sf-compress-adapt.c - the level controller: which rung of its codec's
 * ladder a compressed savefile's next blocks are written at.  Per input
 * byte over the last blocks at the current rung: x ns of CPU compressing,
 * r bytes written, y ns of the disk's time per byte written, z ns of wall
 * time; N threads compress, on C CPUs.  The writer keeps up while its load,
 * the largest of the disk's r y / z, the threads' (x + r y) / (N z) and the
 * CPUs' x / (C z), is below 1.  Another rung has the x and r it had when
 * last measured, or the current rung's scaled by the ladder.  Against
 * storing (x = 0, r = 1) this is Shimizu et al.'s condition: compressing
 * pays while x + r y < y.  The rules:
 *  1. Saturated (load above BUSY, or a backlog): to the rung of the lowest
 *     predicted load, if lower by MARGIN; disk-bound up, CPU-bound down.
 *  2. Keeping up: climb only to a rung predicted below SAFE load and CPU_LOW
 *     of the threads, for SIZE_GAIN fewer bytes (the CPU may be the
 *     capture's); descend when compressing takes more than CPU_HIGH.
 *  3. Copying a savefile, where waiting loses nothing: the most thorough
 *     rung predicted as fast as a plain copy (COPY_UP, COPY_DOWN).
 * Moves wait for HOLD_UP or HOLD_DOWN votes and WARMUP blocks at a rung.
 * Nothing here reads a clock or does I/O: tests use made-up timings.
 */

#include <config.h>

#include "ftmacros.h"	/* u_int with -std=c99 */

#include <string.h>

#include "sf-compress.h"

/* Set by measuring traffic into slow and fast sinks; loads are shares. */
#define	ADAPT_BUSY		0.85	/* saturated above it: rule 1 */
#define	ADAPT_SAFE		0.70	/* rule 2 never climbs above it */
#define	ADAPT_MARGIN		0.04	/* rungs differ by more than this */
#define	ADAPT_CPU_LOW		0.25	/* rule 2 climbs below it */
#define	ADAPT_CPU_HIGH		0.50	/* rule 2 descends above: twice LOW */
#define	ADAPT_SIZE_GAIN		0.03	/* a climb must write this much less */
#define	ADAPT_COPY_UP		1.00	/* rule 3: as fast as a plain copy */
#define	ADAPT_COPY_DOWN		1.15	/* rule 3: a copy's times are noisy */
#define	ADAPT_MIN_GAIN		(1.0 / 32)	/* as the skip judges */
#define	ADAPT_WARMUP		8	/* 4 blocks in flight, 4 to average */
#define	ADAPT_WARMUP_URGENT	4	/* a growing backlog cannot wait */
#define	ADAPT_HOLD_UP		16	/* climbing costs CPU: be sure */
#define	ADAPT_HOLD_DOWN		4	/* descending saves packets: be quick */
#define	ADAPT_SLOW		(1.0 / 16)	/* noise down to a few % */
#define	ADAPT_FAST		(1.0 / 4)	/* follows what happens now */
#define	ADAPT_SEEN		(1.0 / 8)	/* a rung's remembered figures */
#define	ADAPT_BACKLOG_LOW	(1.0 / 16)	/* of the ring: late */
#define	ADAPT_BACKLOG_HIGH	(1.0 / 2)	/* of the ring: urgent */
#define	ADAPT_TREND		(1.0 / 4)	/* the backlog's trend */
#define	ADAPT_STALE		((uint64_t)1 << 30)	/* input bytes valid */
#define	ADAPT_DISK_STALE	((uint64_t)256 << 20)	/* ... for the disk */
#define	ADAPT_DISK_BLOCKED	0.5	/* disk-bound above this in write() */
#define	ADAPT_BUSY_MAX		2.0	/* one block's load counts at most */
#define	ADAPT_GAIN_MAX		0.999	/* no rung saves everything */
#define	ADAPT_SANE_OUT		2	/* more out per byte in is no sample */

/*
 * Measured on HTTP frames through the dumper (cost: the codec call alone);
 * only how rungs compare matters, as they scale what the current rung does.
 * Left out: levels a neighbour matches in bytes for less CPU.  zstd's upper,
 * disk-bound rungs fill blocks 8 times the default size: none has history.
 */
#define	NRUNGS(a)	((u_int)(sizeof(a) / sizeof((a)[0])))

/*	level	cost	gain	scale */
static const struct pcapint_sfc_adapt_rung zstd_rungs[] = {
	{ 0,	0.06,	0.0,	1 },
	{ -5,	2.12,	0.767,	1 },
	{ -1,	2.57,	0.795,	1 },
	{ 1,	2.82,	0.814,	1 },
	{ 3,	4.18,	0.819,	8 },
	{ 5,	11.3,	0.834,	8 },
	{ 6,	13.6,	0.837,	8 },
};

static const struct pcapint_sfc_adapt_rung lz4_rungs[] = {
	{ 0,	0.06,	0.0,	1 },
	{ 1,	2.26,	0.739,	1 },
	{ 3,	9.56,	0.800,	1 },
	{ 6,	15.7,	0.809,	1 },
};

static const struct pcapint_sfc_adapt_rung gzip_rungs[] = {
	{ 0,	0.06,	0.0,	1 },
	{ 1,	8.86,	0.790,	1 },
	{ 4,	14.2,	0.807,	1 },
	{ 6,	21.6,	0.827,	1 },
};

/* zstd begins mid-range (-1): the limit is not known yet. */
const struct pcapint_sfc_adapt_ladder
    pcapint_sfc_zstd_ladder = { NRUNGS(zstd_rungs), 2, zstd_rungs },
    pcapint_sfc_lz4_ladder = { NRUNGS(lz4_rungs), 1, lz4_rungs },
    pcapint_sfc_gzip_ladder = { NRUNGS(gzip_rungs), 1, gzip_rungs };

/* What the writer would do at a rung, predicted from a window. */
struct adapt_load {
	double	cpu;		/* share of the compressing threads' CPUs */
	double	load;		/* the busiest of disk, threads and CPUs */
	double	ratio;		/* bytes written per input byte */
	double	gain;		/* of the codec on the bytes it is run on */
	double	copy, plain;	/* ns per input byte of a copy, a plain one */
	int	recent;		/* what it did lately is known */
};

static double
adapt_max(double a, double b)
{
	return (a > b ? a : b);
}

void
pcapint_sfc_adapt_init(struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_ladder *ladder, u_int floor)
{
	memset(a, 0, sizeof(*a));
	a->ladder = ladder;
	a->floor = floor;
	a->rung = ladder->start > floor ? ladder->start : floor;
	a->threads = a->cpus = 1;
}

/* Rule 3 decides: a writer with a floor, knowing the producer's time. */
#define	ADAPT_COPYING(a, w)	((a)->floor > 0 && (w)->producer > 0)

/*
 * With fewer CPUs than threads, helpers compress while the writer is in
 * write(): its 1 in N share of that counts as disk time, as the disk drains.
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
 * Every rung's load from rung k's window w; 0 if it says nothing yet.  A
 * rung not measured lately scales k's (on rung 0, rung 1's last) by the
 * ladder, by what is saved, not left (1% never becomes 20%).  A copy takes
 * write() as measured: helpers' hidden disk time counts only if it limits.
 */
static int
adapt_predict(const struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_window *w, struct adapt_load *at)
{
	const struct pcapint_sfc_adapt_rung *rungs = a->ladder->rungs;
	u_int k = a->rung, ref = k, j;
	double n = a->threads, tried = 1, c, g, x, r, y, z;
	double cost, gain, prod, wr, all;
	int scaled = 1;

	if (w->in <= 0 || w->wall <= 0)
		return (0);
	y = adapt_disk_ns(a, w->write, w->cpu, w->out);
	if (a->disk_when != 0 && a->fed - a->disk_when < ADAPT_DISK_STALE &&
	    a->disk_y > y)
		y = a->disk_y;
	z = w->wall / w->in;
	/* The skip runs the codec on the same share; from rung 0, on all. */
	if (k > 0 && w->tried_in > 0) {
		tried = w->tried_in / w->in;
		c = w->cpu / w->tried_in;
		g = 1.0 - w->tried_out / w->tried_in;
	} else {
		if (k == 0 || a->seen[k].when == 0)
			ref = 1;
		c = a->seen[ref].cost;
		g = a->seen[ref].gain;
		scaled = a->seen[ref].when != 0;
	}
	for (j = 0; j < a->ladder->nrungs; j++) {
		at[j].recent = a->seen[j].when != 0 &&
		    a->fed - a->seen[j].when < ADAPT_STALE;
		if (j == k) {
			x = w->cpu / w->in;
			r = w->out / w->in;
			/* The skip may have stored the whole window. */
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
			if (at[j].recent) {
				cost = a->seen[j].cost;
				gain = a->seen[j].gain;
			} else if (scaled) {
				cost = c * rungs[j].cost / rungs[ref].cost;
				gain = g > 0 ? g * rungs[j].gain /
				    rungs[ref].gain : g;
				gain = gain < ADAPT_GAIN_MAX ? gain :
				    ADAPT_GAIN_MAX;
			} else {
				cost = rungs[j].cost;
				gain = rungs[j].gain;
			}
			x = tried * cost + (1 - tried) * rungs[0].cost;
			r = 1 - tried * gain;
		}
		at[j].cpu = x / (a->cpus * z);
		at[j].load = adapt_max(at[j].cpu,
		    adapt_max(r * y / z, (x + r * y) / (n * z)));
		at[j].ratio = r;
		at[j].gain = gain;
		at[j].copy = at[j].plain = 0;
		if (w->producer > 0 && w->out > 0) {
			wr = w->write / w->out;
			prod = w->producer / w->in;
			all = a->all_cpus > 0 ? a->all_cpus : n + 1;
			at[j].copy = adapt_max((prod + x + r * wr) / all,
			    adapt_max(r * wr, adapt_max((x + r * wr) / n,
			    prod)));
			at[j].plain = prod + wr;
		}
	}
	return (1);
}

/* Rules 1-3's way: -1, 0 or 1; *trial: rule 3 tries a rung not measured. */
static int
adapt_want(const struct pcapint_sfc_adapt *a,
    const struct pcapint_sfc_adapt_window *w, int *trial)
{
	u_int k = a->rung, n = a->ladder->nrungs, j, target;
	struct adapt_load at[PCAPINT_SFC_ADAPT_MAX_RUNGS];
	const struct adapt_load *cur = &at[k];
	int copying = ADAPT_COPYING(a, w);
	double down = a->trying ? ADAPT_COPY_UP : ADAPT_COPY_DOWN;

	*trial = 0;
	if (!adapt_predict(a, w, at))
		return (0);
	/* Below the floor only because nothing compressed. */
	if (k < a->floor)
		return (at[k + 1].gain >= ADAPT_MIN_GAIN);
	/* Nothing to gain from the codec: rung 0 does as well for less. */
	if (k > 0 && cur->gain < ADAPT_MIN_GAIN)
		return (-1);
	/*
	 * Rule 1 may pass the next rung (zstd 3 writes about what 1 does, 5
	 * is worth it); copying, rule 3 alone decides.
	 */
	if (!copying && (a->busy >= ADAPT_BUSY ||
	    (a->have_backlog && a->backlog >= ADAPT_BACKLOG_LOW))) {
		target = k;
		for (j = a->floor; j < n; j++)
			if (at[j].load < at[target].load)
				target = j;
		if (at[target].load >= cur->load * (1 - ADAPT_MARGIN))
			return (0);
		return (target > k ? 1 : -1);
	}
	if (k > a->floor && (copying ?
	    cur->copy > cur->plain * down && at[k - 1].copy < cur->copy :
	    cur->cpu > ADAPT_CPU_HIGH && at[k - 1].load < ADAPT_SAFE))
		return (-1);
	for (j = n - 1; j > k; j--) {
		if (at[j].gain < ADAPT_MIN_GAIN ||
		    at[j].ratio > cur->ratio * (1 - ADAPT_SIZE_GAIN))
			continue;
		if (copying ? at[j].copy <= at[j].plain * ADAPT_COPY_UP :
		    at[j].cpu <= ADAPT_CPU_LOW && at[j].load < ADAPT_SAFE)
			return (1);
		if (copying && j == k + 1 && !at[j].recent &&
		    at[j].copy <= at[j].plain * ADAPT_COPY_DOWN) {
			*trial = 1;
			return (1);
		}
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
	double b, c, d, g, wall, weight;
	int urgent, want, trial;

	if (s->bytes_in == 0)
		return;
	a->fed += s->bytes_in;
	a->threads = s->threads > 0 ? s->threads : 1;
	a->cpus = s->cpus > 0 && s->cpus < a->threads ? s->cpus : a->threads;
	a->all_cpus = s->cpus;
	b = s->ring_size > 0 ? (double)s->backlog / (double)s->ring_size : 0;
	if (b > 1)
		b = 1;
	if (s->ring_size == 0)
		a->trend = 0;
	else if (a->have_backlog)
		a->trend += (b - a->backlog - a->trend) * ADAPT_TREND;
	a->backlog = b;
	a->have_backlog = s->ring_size > 0;
	/* A level's first block paid for its set-up: not a sample. */
	if (s->rung >= a->ladder->nrungs || s->cold)
		return;
	/* Figures never measured are 0: the first sample replaces them. */
	if (s->rung > 0 && s->tried_in > 0 &&
	    s->tried_out <= ADAPT_SANE_OUT * s->tried_in) {
		seen = &a->seen[s->rung];
		c = (double)s->cpu_ns / (double)s->tried_in;
		g = 1.0 - (double)s->tried_out / (double)s->tried_in;
		weight = seen->when != 0 ? ADAPT_SEEN : 1;
		seen->cost += (c - seen->cost) * weight;
		seen->gain += (g - seen->gain) * weight;
		seen->when = a->fed;
	}
	/* Disk over blocks: a shared CPU pairs them; the 2nd would flatter. */
	adapt_add(&a->recent, ADAPT_FAST, s);
	if (a->recent.out > 0 && a->recent.wall > 0 && a->recent.write >=
	    ADAPT_DISK_BLOCKED * a->recent.wall) {
		d = adapt_disk_ns(a, a->recent.write, a->recent.cpu,
		    a->recent.out);
		a->disk_y += (d - a->disk_y) *
		    (a->disk_when != 0 ? ADAPT_SEEN : 1);
		a->disk_when = a->fed;
	}
	if (s->rung != a->rung)
		return;
	/* Smoothed busyness: windows' sums hide a sudden saturation. */
	if (s->wall_ns > 0) {
		wall = (double)s->wall_ns;
		d = adapt_max(((double)s->cpu_ns + (double)s->write_ns) /
		    (a->threads * wall), (double)s->write_ns / wall);
		d = adapt_max((double)s->cpu_ns / (a->cpus * wall), d);
		a->busy += ((d < ADAPT_BUSY_MAX ? d : ADAPT_BUSY_MAX) -
		    a->busy) * ADAPT_FAST;
	}
	/* A plain average until there are enough for the weights. */
	a->samples++;
	weight = 1.0 / a->samples;
	adapt_add(&a->slow, adapt_max(weight, ADAPT_SLOW), s);
	adapt_add(&a->fast, adapt_max(weight, ADAPT_FAST), s);
	/* A copy's ring is always full, and nothing is lost by it. */
	urgent = a->have_backlog && !ADAPT_COPYING(a, &a->slow) &&
	    (a->backlog >= ADAPT_BACKLOG_HIGH ||
	    (a->backlog >= ADAPT_BACKLOG_LOW && a->trend > 0));
	if (a->samples < (urgent ? ADAPT_WARMUP_URGENT : ADAPT_WARMUP))
		return;
	want = adapt_want(a, urgent ? &a->fast : &a->slow, &trial);
	/* A trial that lasted this long without going down has passed. */
	if (a->samples >= ADAPT_WARMUP + ADAPT_HOLD_UP)
		a->trying = 0;
	if (want == 0 || (want > 0) != (a->votes > 0))
		a->votes = 0;
	a->votes += want;
	if (want == 0 || (!urgent && (want > 0 ? a->votes < ADAPT_HOLD_UP :
	    -a->votes < ADAPT_HOLD_DOWN)))
		return;
	a->rung = want > 0 ? a->rung + 1 : a->rung - 1;
	a->moves++;
	a->samples = a->since_probe = 0;
	a->votes = 0;
	a->trying = trial;
	memset(&a->slow, 0, sizeof(a->slow));
	memset(&a->fast, 0, sizeof(a->fast));
}

void
pcapint_sfc_adapt_choose(struct pcapint_sfc_adapt *a,
    struct pcapint_sfc_adapt_choice *c)
{
	c->rung = a->rung;
	c->how = a->rung == PCAPINT_SFC_ADAPT_STORE ?
	    PCAPINT_SFC_ADAPT_STORE_IT : PCAPINT_SFC_ADAPT_SKIP_DECIDES;
	if (a->rung == PCAPINT_SFC_ADAPT_STORE && a->ladder->nrungs > 1 &&
	    ++a->since_probe >= PCAPINT_SFC_ADAPT_PROBE_EVERY) {
		a->since_probe = 0;
		c->rung = 1;
		c->how = PCAPINT_SFC_ADAPT_PROBE;
	}
	c->level = a->ladder->rungs[c->rung].level;
}
