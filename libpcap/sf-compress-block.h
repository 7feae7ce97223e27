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
 * Compressed savefiles: a block on its way from the assembler to the
 * sink, and compressing it with one call of its codec.  The block is
 * the unit every stage of the dumper passes on: the assembler fills
 * it, the planner says how to write it, the codec compresses it and
 * the sink writes it, on whichever threads run those stages.
 */

#ifndef sf_compress_block_h
#define	sf_compress_block_h

#include <limits.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include "pcap-int.h"
#include "sf-compress-encoder.h"

#define	PCAP_FILE_HDR_LEN	24	/* struct pcap_file_header on disk */
#define	PCAP_REC_HDR_LEN	16	/* struct pcap_sf_pkthdr on disk */

/*
 * Counters that one thread updates and others read (statistics, the
 * seek hook behind pcap_dump_ftell64()): only one thread ever stores,
 * so a relaxed atomic store after a plain read is enough, and the
 * readers load them atomically.  On most machines these are plain
 * moves.
 */
#define	SFC_STORE(var, val)	__atomic_store_n(&(var), (val), __ATOMIC_RELAXED)
#define	SFC_LOAD(var)		__atomic_load_n(&(var), __ATOMIC_RELAXED)

/* A struct timespec in ns, for the clocks the dumper reads. */
#define	SFC_TIMESPEC_NS(ts) \
	((uint64_t)(ts).tv_sec * 1000000000u + (uint64_t)(ts).tv_nsec)

/* The level of an encoder that has not run its codec yet. */
#define	SFC_COLD_LEVEL		INT_MIN

/*
 * A full block: the assembler's buffer, or one of the blocks that are
 * compressed side by side.
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

/* A clock's time in ns, 0 if it cannot be read. */
extern uint64_t pcapint_sfc_clock_ns(clockid_t);

/*
 * Compress a planned block with one call of the codec, on any thread,
 * timing the call with the CPU clock of that thread.
 */
extern void pcapint_sfc_block_compress(const struct pcapint_sfc_encoder *,
    struct pcapint_sfc_block *);

#endif
