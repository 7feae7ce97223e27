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
 * Compressed savefiles: what the options (sf-compress-options.c), the
 * dumper (sf-compress-dumper.c) and its writer thread glue
 * (sf-compress-thread.c, or sf-compress-nothread.c without pthreads)
 * share: the options, the dumper's state, and the calls between them.
 */

#ifndef sf_compress_dumper_h
#define	sf_compress_dumper_h

#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress.h"
#include "sf-compress-policy.h"
#include "sf-compress-adapt.h"

#define	PCAP_FILE_HDR_LEN	24	/* struct pcap_file_header on disk */
#define	PCAP_REC_HDR_LEN	16	/* struct pcap_sf_pkthdr on disk */

/*
 * Counters the writer thread updates and the application's thread
 * reads (statistics, the seek hook for pcap_dump_ftell64()): only one
 * thread ever stores, so a relaxed atomic store after a plain read is
 * enough, and the readers load them atomically.  Without a writer
 * thread these are plain moves.
 */
#define	SFC_STORE(var, val)	__atomic_store_n(&(var), (val), __ATOMIC_RELAXED)
#define	SFC_LOAD(var)		__atomic_load_n(&(var), __ATOMIC_RELAXED)

struct pcap_dump_options {
	const struct pcapint_sfc_codec *codec;	/* pcapint_sfc_store: none */
	int	level;
	size_t	block_size;
	int	block_size_set;	/* by pcap_dump_options_set_block_size() */
	size_t	ring_size;	/* writer thread's ring; 0: no thread */
	int	cpu;		/* CPU to pin the writer to; -1: none */
	int	nice_incr;	/* how much nicer the writer runs; 0: same */
	int	adaptive;	/* the dumper picks the level ("zstd:auto") */
};

struct pcapint_sfc_thr;

/* A struct timespec in ns, for the clocks the dumper reads. */
#define	SFC_TIMESPEC_NS(ts) \
	((uint64_t)(ts).tv_sec * 1000000000u + (uint64_t)(ts).tv_nsec)

/* The level of an encoder that has not run its codec yet. */
#define	SFC_COLD_LEVEL		INT_MIN

/*
 * A full block on its way to disk.  Without compression helpers the
 * dumper describes its own buffers with one; with them, each slot of
 * sf-compress-jobs.c is one, which the writer thread owns but between
 * pcapint_sfc_jobs_submit() and the return of pcapint_sfc_jobs_wait().
 */
struct pcapint_sfc_block {
	u_char	*in;		/* the block, block_size bytes */
	size_t	fill;
	uint64_t records;	/* whole records in it, for the accounting */

	/* How to write it, from pcapint_sfc_level_plan(). */
	int	try_codec;	/* see enc_block() in sf-compress.h */
	int	level;		/* the codec's level */
	u_int	rung;		/* the level's rung on the ladder, or 0 */
	int	how;		/* PCAPINT_SFC_ADAPT_STORE_IT, ... */

	/* Results, from pcapint_sfc_compress(). */
	ssize_t	out_len;	/* -1: the codec failed, ebuf says why */
	int	stored;
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
 * A compressed dumper: the FILE * the application holds, the block
 * being filled, the accounting, and the writer thread if it has one.
 */
struct pcapint_sfc_dumper {
	struct pcapint_sfc_dumper *next;	/* in the registry */
	FILE	*fp;		/* the cookie stream, the dumper handle */
	FILE	*raw;		/* where the blocks go */
	int	fd;		/* fileno(raw) */
	const struct pcapint_sfc_codec *codec;
	const char *name;	/* the codec's, for messages */
	void	*enc;
	int	enc_warm_level;	/* as warm_level in a block, for enc */
	u_char	*buf;		/* the block being filled */
	size_t	fill;
	size_t	rec_start;	/* where the current record starts in buf */
	size_t	block_size;	/* the largest block: what buffers hold */
	size_t	block_full;	/* the fill at which the block is full */
	size_t	block_unit;	/* the options' block size, which the
				   ladder's rungs multiply; 0: every
				   block is block_size */
	u_char	*out;		/* one compressed block */
	size_t	out_size;
	int64_t	base;		/* offset of raw when we started */
	u_char	hdr[SFC_MAX_HEADER];	/* stream header not yet written */
	size_t	hdr_len;
	int	level;

	/* Record accounting over the pcap byte stream. */
	uint64_t in_bytes;	/* bytes of pcap stream so far */
	size_t	rec_need;	/* header bytes still to collect */
	u_char	rec_hdr[PCAP_REC_HDR_LEN];
	uint64_t rec_body;	/* body bytes of current record left */
	uint64_t records;	/* complete records handed to us */
	uint64_t rec_buffered;	/* ... of them not yet on disk */
	uint64_t rec_written;	/* ... of them on disk */

	uint64_t out_bytes;
	uint64_t blocks;
	uint64_t blocks_stored;

	/* For sf-compress-policy.c: the results it decides from. */
	struct pcapint_sfc_skip skip;
	uint64_t blocks_begun;	/* blocks decided so far */
	u_char	results[SFC_SKIP_LAG];	/* block n's at n % SFC_SKIP_LAG */

	/*
	 * The level of each block (sf-compress-level.c): adapt is the
	 * controller of sf-compress-adapt.c, NULL at a fixed level;
	 * blocks_at[] counts the blocks written at each rung of its
	 * ladder (at a fixed level, all of them in blocks_at[0]).
	 */
	struct pcapint_sfc_adapt *adapt;
	uint64_t last_sample_ns;	/* when the last block was written */
	uint64_t blocks_at[PCAPINT_SFC_ADAPT_MAX_RUNGS];
	uint64_t level_moves;

	int	err;		/* sticky errno, 0 if none */
	char	errmsg[PCAP_ERRBUF_SIZE];

	/*
	 * The writer thread's glue, NULL without a thread.  With one,
	 * the application's thread only assembles whole records and
	 * hands them to the ring; everything above, but the fields read
	 * through SFC_LOAD(), belongs to the writer thread.
	 */
	struct pcapint_sfc_thr *thr;
};

/* sf-compress-options.c: the codec "default" stands for. */
extern const struct pcapint_sfc_codec *pcapint_sfc_default_codec(void);

/*
 * sf-compress-dumper.c, for the thread glue: the path records take
 * without a thread, which the writer thread takes with one.
 */
extern void pcapint_sfc_stream_write(struct pcapint_sfc_dumper *,
    const u_char *, size_t);
extern int pcapint_sfc_flush_block(struct pcapint_sfc_dumper *);
extern int pcapint_sfc_block_out(struct pcapint_sfc_dumper *,
    const struct pcapint_sfc_block *);

/*
 * sf-compress-level.c: how each block is written.
 *
 * Set up the dumper's level from the options, the controller if the
 * level adapts; offline is set for a dumper whose records come from a
 * savefile, which loses nothing by waiting.  0, or -1 with errbuf
 * filled in.
 */
extern int pcapint_sfc_level_init(struct pcapint_sfc_dumper *,
    const pcap_dump_options_t *, int offline, char *errbuf);
extern void pcapint_sfc_level_free(struct pcapint_sfc_dumper *);

/* Decide the level of a full block and whether the codec runs on it. */
extern void pcapint_sfc_level_plan(struct pcapint_sfc_dumper *,
    struct pcapint_sfc_block *);

/* Compress a block as planned, on any thread, timing the codec. */
extern void pcapint_sfc_compress(const struct pcapint_sfc_codec *,
    struct pcapint_sfc_block *);

/*
 * Count a block that was written, write_ns the time write() took, and
 * tell the controller; and the figures for pcap_dump_get_stats().
 */
extern void pcapint_sfc_level_learn(struct pcapint_sfc_dumper *,
    const struct pcapint_sfc_block *, uint64_t write_ns);
extern void pcapint_sfc_level_stats(struct pcapint_sfc_dumper *,
    struct pcap_dump_stats *);

/*
 * The writer thread glue, sf-compress-thread.c; sf-compress-nothread.c
 * has what a build without pthreads does instead.
 *
 * The checks of the options: 0, or -1 with errbuf filled in.
 */
extern int pcapint_sfc_thr_check_ring(size_t ring_size, char *errbuf);
extern int pcapint_sfc_thr_check_cpu(int cpu, char *errbuf);
extern int pcapint_sfc_thr_check_nice(int nice_incr, char *errbuf);

/*
 * Start the writer thread of a dumper whose options ask for one, once
 * the file header is in the block; 0, or -1 with p's errbuf filled in.
 */
extern int pcapint_sfc_thr_start(struct pcapint_sfc_dumper *, pcap_t *,
    const pcap_dump_options_t *);

/*
 * With a thread (w->thr != NULL): bytes fwrite() to the dumper, a whole
 * record from pcap_dump() (0 taken, -1 to go the long way, through
 * fwrite()), a flush (0 or -1 after an error), the block with helpers
 * (1 if handed to them, with *ret the result), the statistics the
 * thread keeps, and the stop that drains the ring and joins the thread,
 * after which this thread owns the dumper again.
 */
extern void pcapint_sfc_thr_write(struct pcapint_sfc_dumper *,
    const u_char *, size_t);
extern int pcapint_sfc_thr_record(struct pcapint_sfc_dumper *, const void *,
    const u_char *, bpf_u_int32);
extern int pcapint_sfc_thr_flush(struct pcapint_sfc_dumper *);
extern int pcapint_sfc_thr_submit(struct pcapint_sfc_dumper *, int *ret);
extern void pcapint_sfc_thr_stats(struct pcapint_sfc_dumper *,
    struct pcap_dump_stats *);

/*
 * For the level controller, on the thread that writes: the bytes
 * waiting in the ring, its size (0 without a thread) and the number
 * of threads that compress.
 */
extern void pcapint_sfc_thr_load(struct pcapint_sfc_dumper *,
    struct pcapint_sfc_adapt_sample *);
extern void pcapint_sfc_thr_stop(struct pcapint_sfc_dumper *);

/*
 * Flush a dumper, take its final figures and error message and close
 * it: what pcap_dump_close_async() does for each dumper handed to it,
 * on a thread of its own (sf-close-async.c) or, without pthreads, at
 * once (sf-compress-nothread.c).  Returns 0 or PCAP_ERROR; *stp is NULL
 * if there are no figures (a plain dumper), msg empty if no error.
 */
static inline int
pcapint_dump_close_report(pcap_dumper_t *d, struct pcap_dump_stats *st,
    const struct pcap_dump_stats **stp, char *msg, size_t msgsize)
{
	const char *e;
	int status;

	/*
	 * Flush first, which waits for the ring to drain: the figures
	 * taken after it are final (close only adds a trailer).
	 */
	status = pcap_dump_flush(d) == -1 ? PCAP_ERROR : 0;
	memset(st, 0, sizeof(*st));
	*stp = pcap_dump_get_stats(d, st, sizeof(*st)) == 0 ? st : NULL;
	msg[0] = '\0';
	e = pcap_dump_geterr(d);
	if (e != NULL)
		pcapint_strlcpy(msg, e, msgsize);
	pcap_dump_close(d);
	if (status != 0 && msg[0] == '\0')
		snprintf(msg, msgsize, "error flushing the savefile");
	return (status);
}

#endif
