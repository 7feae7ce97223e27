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
 * Compressed savefiles' internal interface.  savefile.c, built everywhere,
 * includes it: only C99 and pcap-int.h, no ssize_t (MSVC lacks it).
 */

#ifndef sf_compress_h
#define	sf_compress_h

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcap-int.h"

/* Reading, sf-compress-read.c, and what the decoders share. */
enum pcapint_sfc_container_id {	/* in order of preference */
	SFC_STORE, SFC_ZSTD, SFC_LZ4, SFC_GZIP,
#ifdef SFC_LZOP_CONTAINER
	SFC_LZO,
#endif
	SFC_NCONTAINERS
};
#ifdef SFC_LZOP_CONTAINER
#define	SFC_MAGIC_MAX	9	/* lzop's signature */
#else
#define	SFC_MAGIC_MAX	4
#endif
#define	SFC_MAGIC_CHECK	4	/* what savefile.c has read when it asks */
struct pcapint_sfc_container {
	const char	*name;
	u_char		magic[SFC_MAGIC_MAX];	/* all of the signature */
	u_int		magic_len;	/* 0 for "store": plain pcap */
	const struct pcapint_sfc_decoder *dec;	/* NULL: not built */
};
extern const struct pcapint_sfc_container
    pcapint_sfc_containers[SFC_NCONTAINERS];
#define	SFC_MAGIC(id)	(pcapint_sfc_containers[id].magic)
extern const struct pcapint_sfc_decoder pcapint_sfc_gzip_decoder,
    pcapint_sfc_lz4_decoder, pcapint_sfc_zstd_decoder;
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_decoder pcapint_sfc_lzo_decoder;
#endif
/* savefile.c's check_headers[] entry; rfile is the decompressing stream. */
extern pcap_t *pcapint_compressed_check_header(const uint8_t *, FILE *,
    u_int, char *, int *);
/* Units the reader holds whole, to hand none out damaged; blocks fit. */
#define	SFC_MAX_BLOCK		(16 * 1024 * 1024)
/* Primed with the magic pcap_fopen_offline() read: pipes can't rewind. */
struct pcapint_sfc_input {
	FILE	*raw;
	u_char	*buf;
	size_t	size, pos, len;	/* buf's allocated, next unread, valid bytes */
	int64_t	off;		/* raw stream offset of buf[0] */
	int	eof, ioerr;	/* raw hit end of file; read error (errno) */
};
#define	SFC_INPUT_OFFSET(in)	((in)->off + (int64_t)(in)->pos)
#ifdef SFC_LZOP_CONTAINER
/* Copy n bytes of input: returns n, fewer only at end of file, or -1. */
extern ptrdiff_t pcapint_sfc_read(struct pcapint_sfc_input *, void *, size_t);
#endif
/* dec_read() errors; the reader adds "truncated"/"corrupt" and where. */
#define	SFC_DEC_TRUNCATED	(-1)	/* stream ends inside a block */
#define	SFC_DEC_CORRUPT		(-2)	/* errbuf says why */
#define	SFC_DEC_IOERR		(-3)	/* raw read error, errno in input->ioerr */
#ifdef HAVE_LIBLZO2
#define	SFC_DEC_FAILED		(-4)	/* not the file's fault: errbuf says */
#endif
/* A codec's state, zeroed, or NULL with malloc's message in errbuf. */
extern void *pcapint_sfc_calloc(size_t, char *errbuf);

/*
 * First in a streaming decoder's state.  step(), one library call, sets
 * *srclen, *dstlen to what it used and made, *hint to the input it wants
 * next; 1: the unit (gzip member, frame) ended; 0: not; -1: damage, errbuf.
 */
struct pcapint_sfc_stream {
	int	(*step)(void *, const u_char *src, size_t *srclen, u_char *dst,
		    size_t *dstlen, size_t *hint, char *errbuf);
	size_t	first_read;	/* input to ask for at a unit's start */
	int	zero_padding;	/* zero bytes after the last unit end it */
	size_t	hint;		/* input the library wants next */
	int	in_unit;
	int64_t	unit_off;
};

/*
 * dec_read() returns up to size bytes of one unit (block, frame), 0 or an
 * SFC_DEC_ error, the unit's raw offset in *unit_off; *unit_done, even with
 * 0 bytes, if they end it and its checksum matched.  0 otherwise: the end.
 */
struct pcapint_sfc_decoder {
	void	*(*dec_create)(char *errbuf);
	void	(*dec_free)(void *);
	ptrdiff_t	(*dec_read)(void *, struct pcapint_sfc_input *, u_char *,
		    size_t, int64_t *unit_off, int *unit_done, char *errbuf);
	int	dec_units_independent;	/* each stands alone, behind the magic */
	int	seek_table;	/* a file may end with zstd's seek table */
};
extern ptrdiff_t pcapint_sfc_stream_read(void *, struct pcapint_sfc_input *,
    u_char *, size_t, int64_t *, int *, char *);

/* The level controller, sf-compress-adapt.c: ladders of codec levels. */
#define	PCAPINT_SFC_ADAPT_STORE		0	/* rung 0 stores */
#define	PCAPINT_SFC_ADAPT_MAX_RUNGS	8
#define	PCAPINT_SFC_ADAPT_PROBE_EVERY	16	/* rung 0 tries the codec this often */
struct pcapint_sfc_adapt_rung {
	int	level;		/* the codec's level; unused on rung 0 */
	double	cost, gain;	/* CPU ns per input byte; 1 - out / in bytes */
	u_int	scale;		/* block size multiplier, unless set */
};
struct pcapint_sfc_adapt_ladder {
	u_int	nrungs, start;	/* <= PCAPINT_SFC_ADAPT_MAX_RUNGS; the first */
	const struct pcapint_sfc_adapt_rung *rungs;	/* cheapest first */
};
/* A written block, or a few at one rung added up; times in ns. */
struct pcapint_sfc_adapt_sample {
	u_int	rung;		/* the rung the block was compressed at */
	uint64_t bytes_in, bytes_out;	/* uncompressed; written for it */
	uint64_t tried_in, tried_out;	/* of those, the codec's in and out */
	uint64_t cpu_ns, write_ns;	/* codec's thread CPU; in write() */
	uint64_t wall_ns;	/* wall-clock time since the previous sample */
	uint64_t backlog, ring_size;	/* in the ring after it; 0: no ring */
	u_int	threads, cpus;	/* that compress; their CPUs, 0: one each */
	uint64_t producer_ns;	/* the producer's CPU time; 0: unknown */
	int	cold;		/* cpu_ns includes setting a new level up */
};
#define	PCAPINT_SFC_ADAPT_STORE_IT	0	/* store it; don't run the codec */
#define	PCAPINT_SFC_ADAPT_SKIP_DECIDES	1	/* the skip decides, at rung's level */
#define	PCAPINT_SFC_ADAPT_PROBE		2	/* run the codec, whatever the skip says */
struct pcapint_sfc_adapt_choice {
	u_int	rung;
	int	level;		/* ladder->rungs[rung].level */
	int	how;		/* PCAPINT_SFC_ADAPT_STORE_IT, ... */
};
/* The controller's state: the functions touch nothing else, never fail. */
struct pcapint_sfc_adapt_window {
	double	in, out, tried_in, tried_out, cpu, write, wall, producer;
};
struct pcapint_sfc_adapt_seen {
	double	cost, gain;	/* smoothed, of bytes the codec was run on */
	uint64_t when;		/* fed after its last sample; 0 never */
};
struct pcapint_sfc_adapt {	/* private but for rung and moves */
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int	floor, rung;	/* lowest rung the CPU may push to; current */
	uint64_t moves;		/* rung changes so far */
	struct pcapint_sfc_adapt_window slow, fast;	/* at this rung */
	u_int	samples;	/* samples at this rung since it was chosen */
	double	busy;		/* smoothed load of the last samples */
	u_int	threads, cpus;	/* cpus <= threads */
	u_int	all_cpus;	/* the CPUs of the sample, 0: one each */
	uint64_t fed;		/* input bytes of the samples fed in all */
	struct pcapint_sfc_adapt_window recent;	/* at any rung, for disk_y */
	double	disk_y;		/* ns in write() per byte, while it blocked */
	uint64_t disk_when;	/* fed after its last update; 0 never */
	double	backlog, trend;	/* last backlog / ring size; smoothed change */
	int	have_backlog;
	int	votes;		/* > 0: samples in a row for up; < 0: down */
	int	trying;		/* rule 3 tries a rung not measured lately */
	u_int	since_probe;	/* blocks stored on rung 0 since a probe */
	struct pcapint_sfc_adapt_seen seen[PCAPINT_SFC_ADAPT_MAX_RUNGS];
};

/* floor is a rung: CPU load never takes it below, incompressible data may. */
void	pcapint_sfc_adapt_init(struct pcapint_sfc_adapt *,
	    const struct pcapint_sfc_adapt_ladder *, u_int floor);
/* Also for blocks of a rung chosen before the current one. */
void	pcapint_sfc_adapt_feed(struct pcapint_sfc_adapt *,
	    const struct pcapint_sfc_adapt_sample *);
/* Once per block, before it begins. */
void	pcapint_sfc_adapt_choose(struct pcapint_sfc_adapt *,
	    struct pcapint_sfc_adapt_choice *);
extern const struct pcapint_sfc_adapt_ladder pcapint_sfc_zstd_ladder,
    pcapint_sfc_lz4_ladder, pcapint_sfc_gzip_ladder;

/* Writing, sf-compress-write.c; "store" too has a full encoder. */
struct pcapint_sfc_encoder {
	enum pcapint_sfc_container_id container;
	int		compresses;	/* 0 for "store" */
	int		min_level, max_level, default_level;
	/*
	 * enc_block() writes a block of up to block_size bytes at *res, in at
	 * most enc_bound() bytes, as a unit of its container (gzip member,
	 * LZ4 or zstd frame) that stands alone: tools read the units as one
	 * stream; a file cut between two is valid.  try_codec 0 stores it, no
	 * CPU spent; *stored: it went as it came.  Errors: NULL, -1, errbuf.
	 */
	void	*(*enc_create)(int level, size_t block_size, char *errbuf);
	void	(*enc_free)(void *);
	size_t	(*enc_bound)(void *, size_t);
	ptrdiff_t	(*enc_block)(void *, const u_char *, size_t, u_char *, size_t,
		    int try_codec, int *stored, const u_char **res,
		    char *errbuf);
	/* For the next blocks; cheap if unchanged.  NULL: one level. */
	int	(*enc_level)(void *, int level, char *errbuf);
	const struct pcapint_sfc_adapt_ladder *ladder;	/* NULL: one level */
	/* A unit of len bytes that readers skip, or 0 if len is too short. */
	size_t	(*enc_pad)(u_char *, size_t len);
};
#define	SFC_MAX_HEADER	64
#define	SFC_ENCODER_NAME(e)	(pcapint_sfc_containers[(e)->container].name)
extern const struct pcapint_sfc_encoder pcapint_sfc_store,
    pcapint_sfc_gzip_encoder, pcapint_sfc_lz4_encoder,
    pcapint_sfc_zstd_encoder;
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_encoder pcapint_sfc_lzo_encoder;
/* lzop's stream header, before the first block, and its end mark. */
extern size_t pcapint_sfc_lzo_header(u_char *);
extern size_t pcapint_sfc_lzo_trailer(u_char *);
#endif
/* extract.h has loads but no stores. */
extern void pcapint_sfc_put_le32(u_char *, uint32_t);
extern size_t pcapint_sfc_skippable_pad(u_char *, size_t);
#define	SFC_MAX_SIZE(a, b)	((a) > (b) ? (a) : (b))

#if defined(SFC_COOKIE_OFF_T) && defined(SFC_HAVE_ATOMICS)
#define	SFC_DUMPER	/* sf-compress-write.c has its dumper */
#define	PCAP_REC_HDR_LEN	16	/* struct pcap_sf_pkthdr on disk */
/* pcap_dump_flush()'s: -1 if the dumper has a sticky error, else 0. */
extern int pcapint_dump_compress_flush(FILE *);
/* pcap_dump()'s: 0: a compressed dumper took it; -1: plain or mid-fwrite(). */
extern int pcapint_dump_compress_record(FILE *, const struct pcap_pkthdr *,
    const u_char *);
#else
#define	pcapint_dump_compress_flush(fp)			0
#define	pcapint_dump_compress_record(fp, h, data)	(-1)
#endif
#define	SFC_COLD_LEVEL		INT_MIN	/* the codec has not run yet */
/* A full block, as the dumper's stages pass it on, on any threads. */
struct pcapint_sfc_block {
	u_char	*in;		/* the block */
	size_t	fill;
	uint64_t records;	/* records that end in it, for the accounting */
	/* From the planner. */
	int	try_codec;	/* 0: store it without running the codec */
	int	level;		/* the codec's level */
	u_int	rung;		/* the level's rung on the ladder, or 0 */
	int	plan;		/* the planner's own note on its choice */
	/* From pcapint_sfc_block_compress(). */
	ptrdiff_t	out_len;	/* -1: the codec failed, ebuf says why */
	int	stored;		/* it went out as it came in */
	const u_char *res;	/* the block as it goes on disk */
	uint64_t cpu_ns;	/* CPU time the codec took */
	int	cold;		/* cpu_ns includes setting a new level up */
	char	ebuf[PCAP_ERRBUF_SIZE];
	u_char	*out;
	size_t	out_size;
	void	*enc;
	int	warm_level;	/* enc's last level, or SFC_COLD_LEVEL */
};
/* On any thread, timed by that thread's CPU clock. */
extern void pcapint_sfc_block_compress(const struct pcapint_sfc_encoder *,
    struct pcapint_sfc_block *);
/* Block n's plan uses blocks to n - SFC_SKIP_LAG: same file, any threads. */
#define	SFC_SKIP_LAG	4
/* Written only on the thread that writes. */
struct pcapint_sfc_planner {
	const struct pcapint_sfc_encoder *codec;
	int	level;		/* the level to start at */
	size_t	block_size;	/* the largest block: what buffers hold */
	size_t	block_full;	/* the size of the blocks to fill now */
	size_t	block_unit;	/* scaled by rungs; 0: all are block_size */
	u_int	stored_run, skip_count;	/* incompressible in a row; skipped */
	uint64_t planned, learned;	/* blocks planned; learned from */
	u_char	results[SFC_SKIP_LAG];	/* block n's at n % SFC_SKIP_LAG */
	struct pcapint_sfc_adapt *adapt;	/* NULL at a fixed level */
	uint64_t last_sample_ns;	/* when the last block was learned */
	/* Read by other threads with SFC_LOAD(); all at [0] if fixed. */
	uint64_t blocks_at[PCAPINT_SFC_ADAPT_MAX_RUNGS];
	uint64_t level_moves;
};
/* offline: the records come from a savefile, so waiting loses none. */
extern int pcapint_sfc_planner_init(struct pcapint_sfc_planner *,
    const struct pcap_dump_options *opts, int offline, char *errbuf);
extern void pcapint_sfc_planner_plan(struct pcapint_sfc_planner *,
    struct pcapint_sfc_block *);
/* Blocks are learned from in the order planned, once written. */
extern void pcapint_sfc_planner_learn(struct pcapint_sfc_planner *,
    const struct pcapint_sfc_block *);
/* Then what it cost, into s with the writer's load; block_full may change. */
extern void pcapint_sfc_planner_measure(struct pcapint_sfc_planner *,
    const struct pcapint_sfc_block *, uint64_t write_ns,
    struct pcapint_sfc_adapt_sample *s);

/*
 * The writer thread, sf-writer.c: a single-producer/consumer ring.  ops
 * run on it only, so unlocked: consume() gets the stream in order; flush()
 * runs once all put before a flush request is consumed.  An errno value
 * returned is sticky: every record after it is lost.
 */
struct pcapint_writer_ops {
	int	(*consume)(void *ctx, const unsigned char *buf, size_t len);
	int	(*flush)(void *ctx);
};
struct pcapint_writer_stats {
	uint64_t	bytes_in, records_in;	/* handed to the ring */
	uint64_t	dropped_full;	/* records refused: ring full */
	uint64_t	dropped_error;	/* records refused: sticky error */
	size_t		high_water;	/* most bytes ever waiting in the ring */
	size_t		ring_size;
	int		error;		/* the sticky errno value, or 0 */
};
/* Zeroed: unpinned, at the caller's priority, dropping on a full ring. */
struct pcapint_writer_params {
	size_t	ring_size;	/* bytes, rounded up to a power of two */
	int	cpu;		/* >= 0: pin the thread to that CPU */
	int	nice_incr;	/* > 0: the thread lowers its priority so */
	int	blocking;	/* put waits for room instead of dropping */
};
/* Fails if it cannot pin or renice as asked, never silently ignoring it. */
struct pcapint_writer *pcapint_writer_start(
    const struct pcapint_writer_params *params,
    const struct pcapint_writer_ops *ops, void *ctx, char *errbuf);

/*
 * One producer thread at a time.  A record (one or two pieces) goes in
 * whole, or is dropped (-1: ring full, sticky error), counted either way;
 * no system call but to wake the writer, or to wait for room if blocking.
 */
int	pcapint_writer_put(struct pcapint_writer *, const void *, size_t,
	    const void *, size_t);
/* The same, quicker, for a record: its header, then caplen bytes. */
int	pcapint_writer_put_record(struct pcapint_writer *, const void *,
	    const void *, size_t);
/* 0, the sticky errno, or ETIMEDOUT if write() stalled (stop() cancels). */
int	pcapint_writer_flush(struct pcapint_writer *);
/* write(), but on the writer thread cancellable by a stop that gave up. */
ptrdiff_t	pcapint_writer_write_cancellable(int, const void *, size_t);
void	pcapint_writer_get_stats(struct pcapint_writer *,
	    struct pcapint_writer_stats *);
/* The bytes put so far; producer thread only: it reads its own counter. */
uint64_t	pcapint_writer_bytes_in(struct pcapint_writer *);
int	pcapint_writer_stop(struct pcapint_writer *);	/* drains, frees */
/* The producer's thread or the writer's: each moves one of head and tail. */
size_t	pcapint_writer_backlog(struct pcapint_writer *);
size_t	pcapint_writer_ring_size(struct pcapint_writer *);
/* The CPU option's check, with or without a dumper: 0 or -1. */
int	pcapint_writer_check_cpu(int cpu, char *errbuf);
void	pcapint_writer_set_name(const char *name);	/* 15 chars at most */

#endif
