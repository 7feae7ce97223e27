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
 * Compressed savefiles: the ladders of the codecs whose level adapts,
 * each a row of its container (the ladder field of its codec).
 *
 * A ladder lists a codec's levels from the cheapest to the most
 * thorough.  Rung 0 stores blocks as they are.  Each rung has a cost
 * (ns of one CPU per input byte, of the codec call alone) and a gain
 * (1 - bytes out / bytes in), measured through libpcap's own dumper on
 * generated HTTP frames; the controller (sf-compress-adapt.c) uses them
 * only to predict a rung it has not measured lately from the rung it
 * is on, so what matters is how the rungs compare, not their values on
 * any one machine.  A level is left out where its neighbour writes as
 * few bytes for less CPU.  zstd's upper rungs fill blocks eight times
 * the default size: every block starts without history, and those are
 * the rungs a writer climbs to when the disk is the limit, where a
 * larger block's longer matches save the most.  The lower rungs keep
 * the default, as they are where the CPU is the limit and larger
 * blocks are slower to compress.  Each value was measured on real and
 * generated traffic.
 */

#include <config.h>

#include "ftmacros.h"	/* u_int with -std=c99 */

#include "sf-compress-adapt.h"
#include "sf-compress-ladders.h"

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

/*
 * zstd begins at level -1, in the middle of its range: until a few
 * blocks are measured, neither the disk nor the CPU is known to be the
 * limit.  lz4 and gzip begin at level 1, their only fast level.
 */
const struct pcapint_sfc_adapt_ladder pcapint_sfc_zstd_ladder = {
	NRUNGS(zstd_rungs), 2, zstd_rungs
};
const struct pcapint_sfc_adapt_ladder pcapint_sfc_lz4_ladder = {
	NRUNGS(lz4_rungs), 1, lz4_rungs
};
const struct pcapint_sfc_adapt_ladder pcapint_sfc_gzip_ladder = {
	NRUNGS(gzip_rungs), 1, gzip_rungs
};
