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
 * Compressed savefiles: the one header of the subsystem.  savefile.c
 * and sf-pcap.c include it for the hooks they call, and the files of
 * compressed savefiles for what they call of one another, in the
 * sections below; everything else in those files is static.
 *
 * savefile.c is built on every platform, so this uses nothing beyond
 * C99 and pcap-int.h: no ssize_t, which MSVC lacks (a count of bytes
 * or a negative error is a ptrdiff_t).
 */

#ifndef sf_compress_h
#define	sf_compress_h

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcap-int.h"

/*
 * The containers and savefile.c's hook, sf-compress-read.c.
 */

struct pcapint_sfc_decoder;

/*
 * The containers, in order of preference where one must be chosen.  A
 * row whose decoder was not built has dec NULL, so that its files are
 * recognised and refused with a clear message rather than as "unknown
 * file format".  The magic is the container's own signature, all of
 * it; files are recognised by its first SFC_MAGIC_CHECK bytes at most.
 */
enum pcapint_sfc_container_id {
	SFC_STORE,
	SFC_ZSTD,
	SFC_LZ4,
	SFC_GZIP,
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
	u_char		magic[SFC_MAGIC_MAX];
	u_int		magic_len;	/* 0 for "store": plain pcap */
	const struct pcapint_sfc_decoder *dec;	/* NULL: not built */
};

extern const struct pcapint_sfc_container
    pcapint_sfc_containers[SFC_NCONTAINERS];

#define	SFC_MAGIC(id)	(pcapint_sfc_containers[id].magic)

#ifdef HAVE_ZLIB
extern const struct pcapint_sfc_decoder pcapint_sfc_gzip_decoder;
#endif
#ifdef HAVE_LIBLZ4
extern const struct pcapint_sfc_decoder pcapint_sfc_lz4_decoder;
#endif
#ifdef HAVE_LIBZSTD
extern const struct pcapint_sfc_decoder pcapint_sfc_zstd_decoder;
#endif
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_decoder pcapint_sfc_lzo_decoder;
#endif

/*
 * The check_headers[] entry of savefile.c: recognises a compressed
 * container, and returns a pcap_t whose rfile is the decompressing
 * stream.
 */
extern pcap_t *pcapint_compressed_check_header(const uint8_t *, FILE *,
    u_int, char *, int *);

/*
 * Reading: what the reader and the codecs' decoders share.
 */

/*
 * The largest unit the reader holds whole, so that a damaged one is
 * never handed out; larger ones (gzip(1) makes one member of a whole
 * file) are streamed.  Whoever writes compressed savefiles block by
 * block keeps the blocks within it.
 */
#define	SFC_MAX_BLOCK		(16 * 1024 * 1024)

/*
 * Input side of a decompressing stream, shared by all decoders: a
 * buffer over the raw (compressed) FILE, primed with the magic bytes
 * that pcap_fopen_offline() already consumed, since a pipe cannot be
 * rewound.
 */
struct pcapint_sfc_input {
	FILE	*raw;
	u_char	*buf;
	size_t	size;		/* allocated size of buf */
	size_t	pos;		/* next unconsumed byte in buf */
	size_t	len;		/* bytes valid in buf */
	int64_t	off;		/* raw stream offset of buf[0] */
	int	eof;		/* raw stream hit end of file */
	int	ioerr;		/* raw stream read error (errno) */
};

/* Raw stream offset of the next unconsumed input byte. */
#define	SFC_INPUT_OFFSET(in)	((in)->off + (int64_t)(in)->pos)
#ifdef SFC_LZOP_CONTAINER

/*
 * Copy exactly n bytes of input to dst; returns the number copied, which
 * is less than n only at end of file, or -1 on a read error.
 */
extern ptrdiff_t pcapint_sfc_read(struct pcapint_sfc_input *, void *, size_t);
#endif

/*
 * Decoder results: a decoder returns the number of bytes produced (> 0),
 * 0 at a clean end of the stream, or one of these.  For the errors it
 * has filled in errbuf (without the "truncated"/"corrupt" prefix, which
 * the reader adds together with the container name and the offset; for
 * SFC_DEC_FAILED, such as memory running out, with the whole reason).
 */
#define	SFC_DEC_TRUNCATED	(-1)	/* stream ends inside a block */
#define	SFC_DEC_CORRUPT		(-2)	/* errbuf says why */
#define	SFC_DEC_IOERR		(-3)	/* raw read error, errno in input->ioerr */
#define	SFC_DEC_FAILED		(-4)	/* not the file's fault: errbuf says */

/*
 * One step of a streaming decompressor library (zlib, liblz4, libzstd):
 * decompress from src (*srclen bytes) into dst (*dstlen bytes), setting
 * both to what was consumed and produced, and *hint to how much input
 * the library wants next.  Returns 1 when the unit (gzip member, frame)
 * ended, 0 when it goes on, -1 with errbuf filled in on damage.
 */
typedef int (*pcapint_sfc_step_fn)(void *, const u_char *src, size_t *srclen,
    u_char *dst, size_t *dstlen, size_t *hint, char *errbuf);

/*
 * The state every streaming decoder starts with, for
 * pcapint_sfc_stream_read(), which holds the read loop they share:
 * refilling the input, the unit offsets and the clean or truncated end.
 */
struct pcapint_sfc_stream {
	pcapint_sfc_step_fn step;
	int	(*begin)(void *, char *errbuf);	/* a unit starts; optional */
	size_t	first_read;	/* input to ask for at a unit's start */
	int	zero_padding;	/* zero bytes after the last unit end it */
	size_t	hint;		/* input the library wants next */
	int	in_unit;
	int64_t	unit_off;
};

/*
 * A container's decoder: how its blocks are read back.  dec_read()
 * fills at most size bytes and returns a count, 0 at a clean end or an
 * SFC_DEC_ error; it sets *unit_off to the raw offset of the block or
 * frame it is in, for error messages, and *unit_done when the bytes
 * returned complete that unit and its checksum matched; it returns
 * then, with 0 bytes if need be, so that no call returns bytes of two
 * units.  0 without *unit_done is the end of the stream.  Streaming
 * libraries use pcapint_sfc_stream_read() here.
 */
struct pcapint_sfc_decoder {
	void	*(*dec_create)(char *errbuf);
	void	(*dec_free)(void *);
	ptrdiff_t	(*dec_read)(void *, struct pcapint_sfc_input *, u_char *,
		    size_t, int64_t *unit_off, int *unit_done, char *errbuf);

	/*
	 * Non-zero if a new decoder can start reading at any unit, as
	 * gzip members and LZ4 and zstd frames stand alone; a reader
	 * that seeks then jumps to the unit that holds the target.  A
	 * container whose units need what its file header says is read
	 * again from the beginning instead.
	 */
	int	dec_units_independent;

	/*
	 * Non-zero if a file of the container may end with a seek table
	 * in a skippable frame, which the reader then uses (see
	 * sfc_seektable_read()): zstd, whose project defines one.
	 */
	int	seek_table;

	/*
	 * The bytes every unit starts with (a zstd or LZ4 frame's magic
	 * number, a gzip member's ID and method), by which a reader finds
	 * the next unit after a damaged one; NULL where units do not
	 * stand alone.
	 */
	const char *unit_magic;
};

extern ptrdiff_t pcapint_sfc_stream_read(void *, struct pcapint_sfc_input *,
    u_char *, size_t, int64_t *, int *, char *);

/*
 * The level controller, sf-compress-adapt.c: choosing a compressed
 * savefile's level block by block, from what the writer measures.
 */

/*
 * A ladder is a codec's levels ordered from the cheapest to the most
 * thorough (their rungs are in sf-compress-adapt.c).  Rung 0 of every
 * ladder stores blocks as they are.  The cost and gain of each rung only serve to
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

/*
 * Writing: what the writer, sf-compress-write.c, and the codecs'
 * encoders share, sf-pcap.c's hooks, and the block and the planner,
 * which a unit test drives with made-up blocks.
 */


/*
 * A container's encoder: how blocks are written into it.  Every
 * container, the "store" one that does not compress included, has a
 * full set of these, so the dumper has no special case.
 */
struct pcapint_sfc_encoder {
	enum pcapint_sfc_container_id container;
	int		compresses;	/* 0 for "store" */
	int		min_level;
	int		max_level;
	int		default_level;

	/*
	 * enc_create() returns codec state for blocks of at most
	 * block_size bytes (with errbuf filled in on failure);
	 * enc_bound() is the largest output enc_block() may produce for
	 * one such block, header and trailer included.  enc_block()
	 * compresses one block into out as one self-contained unit of
	 * its container (a gzip member, an LZ4 or a zstd frame), points
	 * *res at the result and returns its length, or -1 with errbuf
	 * filled in; with try_codec zero it must not spend CPU on
	 * compression and store the data.  *stored is set
	 * when the block went out uncompressed.  enc_header() and
	 * enc_trailer() write a stream header or end marker and return
	 * its length, 0 if the container has none.
	 */
	void	*(*enc_create)(int level, size_t block_size, char *errbuf);
	void	(*enc_free)(void *);
	size_t	(*enc_bound)(void *, size_t);
	ptrdiff_t	(*enc_block)(void *, const u_char *, size_t, u_char *, size_t,
		    int try_codec, int *stored, const u_char **res,
		    char *errbuf);
	size_t	(*enc_header)(void *, u_char *);
	size_t	(*enc_trailer)(void *, u_char *);
#define	SFC_MAX_HEADER	64

	/*
	 * Set the level of the blocks enc_block() compresses from now
	 * on; cheap when the level does not change.  The bound of enc_bound() holds
	 * at every level.  Returns 0, or -1 with errbuf filled in.  NULL
	 * for a container with a single level (store).
	 */
	int	(*enc_level)(void *, int level, char *errbuf);

	/*
	 * The codec's levels from the cheapest to the most thorough, for
	 * a dumper whose level adapts (sf-compress-adapt.c); NULL for
	 * a container with a single level.
	 */
	const struct pcapint_sfc_adapt_ladder *ladder;
};

/*
 * The encoder of each container, NULL where its codec was not built,
 * in the containers' order; and the container's name, for messages.
 */
extern const struct pcapint_sfc_encoder *const
    pcapint_sfc_encoders[SFC_NCONTAINERS];

#define	SFC_ENCODER_NAME(e)	(pcapint_sfc_containers[(e)->container].name)

/*
 * The first encoder built that compresses, or store's if there is
 * none: what a dumper writes when its options name no codec.
 */
extern const struct pcapint_sfc_encoder *pcapint_sfc_default_encoder(void);

extern const struct pcapint_sfc_encoder pcapint_sfc_store;
#ifdef HAVE_ZLIB
extern const struct pcapint_sfc_encoder pcapint_sfc_gzip_encoder;
#endif
#ifdef HAVE_LIBLZ4
extern const struct pcapint_sfc_encoder pcapint_sfc_lz4_encoder;
#endif
#ifdef HAVE_LIBZSTD
extern const struct pcapint_sfc_encoder pcapint_sfc_zstd_encoder;
#endif
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_encoder pcapint_sfc_lzo_encoder;
#endif

/*
 * Little and big endian stores for the encoders (extract.h has the
 * loads, EXTRACT_BE_U_4() and friends, but no stores).
 */
extern void pcapint_sfc_put_be32(u_char *, uint32_t);
extern void pcapint_sfc_put_le32(u_char *, uint32_t);

/* enc_header() and enc_trailer() of a container that has neither. */
extern size_t pcapint_sfc_no_header(void *, u_char *);

/* max(a, b) of two sizes, for the encoders' bounds. */
#define	SFC_MAX_SIZE(a, b)	((a) > (b) ? (a) : (b))

/*
 * Called by pcap_dump_flush(): writes out the partly filled block of a
 * compressed dumper; returns -1 if the dumper has a sticky error, 0
 * otherwise (including for a plain dumper).
 */
extern int pcapint_dump_compress_flush(FILE *);

/*
 * Called by pcap_dump() with a record's header, as it goes on disk, and
 * data: a compressed dumper takes the record directly, without stdio,
 * and 0 is returned; -1 means fp is a plain dumper (or one that is in
 * the middle of a record someone fwrite() in parts) and pcap_dump()
 * writes the record itself.
 */
extern int pcapint_dump_compress_record(FILE *, const void *,
    const u_char *, bpf_u_int32);

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
	u_int	rung;		/* the level's rung on the ladder, or 0 */
	int	plan;		/* the planner's own note on its choice */

	/* Results, from pcapint_sfc_block_compress(). */
	ptrdiff_t	out_len;	/* -1: the codec failed, ebuf says why */
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
	size_t	block_unit;	/* the options' block size, which the
				   ladder's rungs multiply; 0: every
				   block is block_size */

	/* The skip: the results of the blocks written, SFC_SKIP_LAG late. */
	struct pcapint_sfc_skip skip;
	uint64_t planned;	/* blocks planned */
	uint64_t learned;	/* blocks learned from */
	u_char	results[SFC_SKIP_LAG];	/* block n's at n % SFC_SKIP_LAG */

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
};

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

/*
 * Then what it cost: write() took write_ns, under load; block_full may
 * change.
 */
extern void pcapint_sfc_planner_measure(struct pcapint_sfc_planner *,
    const struct pcapint_sfc_block *, uint64_t write_ns,
    const struct pcapint_sfc_load *);

/*
 * The writer thread's ring, sf-writer.c: the capturing thread hands
 * bytes to a single-producer/single-consumer ring and goes back to
 * reading packets; the writer thread takes them out and does the slow
 * part (compressing, write()).  The dumper starts, feeds and stops it.
 */

/* The ring and its thread, built with pthreads and a dumper. */
struct pcapint_writer;

/*
 * What the writer thread does with the bytes.  Both callbacks run on the
 * writer thread only, so they need no locking of their own.
 *
 * consume() gets the stream in order, in contiguous pieces of any size
 * (the ring wraps); it returns 0, or an errno value, which becomes the
 * writer's sticky error: nothing is consumed after it, and every record
 * handed over after it is counted as lost.
 *
 * flush() is called when the producer asks for a flush, after every byte
 * handed over before the request has been consumed; it returns 0 or an
 * errno value, as consume() does.
 */
struct pcapint_writer_ops {
	int	(*consume)(void *ctx, const unsigned char *buf, size_t len);
	int	(*flush)(void *ctx);
};

struct pcapint_writer_stats {
	uint64_t	bytes_in;	/* bytes handed to the ring */
	uint64_t	records_in;	/* records handed to the ring */
	uint64_t	dropped_full;	/* records refused: ring full */
	uint64_t	dropped_error;	/* records refused: sticky error */
	size_t		high_water;	/* most bytes ever waiting in the ring */
	size_t		ring_size;
	int		error;		/* the sticky errno value, or 0 */
};

/*
 * How the writer thread is started; zeroed, it is an unpinned thread at
 * the caller's priority whose producer drops records on a full ring.
 */
struct pcapint_writer_params {
	size_t	ring_size;	/* bytes, rounded up to a power of two */
	int	cpu;		/* >= 0: pin the thread to that CPU */
	int	nice_incr;	/* > 0: the thread lowers its priority so */
	int	blocking;	/* put waits for room instead of dropping */
};

/*
 * Start a writer thread.  A failure to pin the thread or to lower its
 * priority fails the call, so that a user who asked for either never
 * silently runs without it.  Returns NULL with errbuf filled in on
 * failure.
 */
struct pcapint_writer *pcapint_writer_start(
    const struct pcapint_writer_params *params,
    const struct pcapint_writer_ops *ops, void *ctx, char *errbuf);

/*
 * Producer side; only ever called from one thread at a time.
 *
 * pcapint_writer_put() copies one record (len bytes, len <= ring size)
 * into the ring, whole or not at all.  Returns 0, or -1 if it was
 * dropped (ring full, or the writer has a sticky error); either way it
 * is counted.  It never blocks and makes no system call unless the
 * writer thread is asleep and must be woken -- except in blocking mode
 * (params.blocking), where a full ring makes it wait for room, so that
 * only a sticky error drops a record.
 */
int	pcapint_writer_put(struct pcapint_writer *, const void *, size_t);

/*
 * Two-part variant for a record that arrives as header and data: the
 * record is accepted only if both parts fit.
 */
int	pcapint_writer_put2(struct pcapint_writer *, const void *, size_t,
	    const void *, size_t);

/*
 * Wait until everything handed over so far has been consumed and
 * flush() has run.  Returns 0 or the sticky errno value: ETIMEDOUT if
 * the writer consumed nothing for 10 seconds (WRITER_STALL_MS), stuck
 * in a write(); pcapint_writer_stop() then cancels that write().
 */
int	pcapint_writer_flush(struct pcapint_writer *);

/*
 * write(), for consume() and flush(): the one place where the writer
 * thread can be cancelled, by a stop that gave up on a stalled write.
 * On any other thread it is write() (whose cancel state it keeps);
 * without pthreads, sf-compress-write.c makes it write().
 */
ptrdiff_t	pcapint_writer_write_cancellable(int, const void *, size_t);

void	pcapint_writer_get_stats(struct pcapint_writer *,
	    struct pcapint_writer_stats *);

/*
 * On the writer thread: the bytes waiting in the ring, and its size.
 */
size_t	pcapint_writer_backlog(struct pcapint_writer *);
size_t	pcapint_writer_ring_size(struct pcapint_writer *);

/*
 * Drain the ring, stop and join the thread and free everything.  Returns
 * 0 or the sticky errno value.
 */
int	pcapint_writer_stop(struct pcapint_writer *);

/*
 * Where a writer thread runs and how nicely.  Built with pthreads, with
 * or without a dumper: the writer options check a CPU and a priority
 * when they are set (sf-compress-write.c).
 */

/*
 * 0 if the writer thread can lower its priority by nice_incr (1 to 19;
 * 0 leaves it alone), -1 with errbuf filled in otherwise.
 */
int	pcapint_writer_check_nice(int nice_incr, char *errbuf);

/*
 * 0 if the writer thread can be pinned to that CPU (it exists and this
 * process may run on it), -1 with errbuf filled in otherwise.
 */
int	pcapint_writer_check_cpu(int cpu, char *errbuf);

/*
 * Name the calling thread (15 characters at most), where the platform
 * has a way to; for threads of ours a user may see in top -H (the
 * dumper's compression helpers name themselves with it).
 */
void	pcapint_writer_set_name(const char *name);

#endif
