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
 * Compressed savefiles: the interface between the generic code (the
 * options in sf-compress-options.c, the dumper in sf-compress-dumper.c,
 * the reader in sf-compress-reader.c) and the containers, one file each:
 * sf-compress-store.c (no codec), sf-compress-zlib.c (gzip),
 * sf-compress-lz4.c (LZ4 frames), sf-compress-zstd.c (zstd frames) and
 * sf-compress-lzo.c (lzop).  The table of containers, with their names
 * and magic numbers, is in sf-compress-codecs.c.
 */

#ifndef sf_compress_h
#define	sf_compress_h

#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "pcap/pcap.h"

/*
 * The largest block a dumper writes; the reader holds units up to this
 * size whole, and streams larger ones, which other tools write.
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

/*
 * Refill the input buffer, keeping the unconsumed bytes, with at most
 * want more bytes; returns the number of bytes now available, 0 at end
 * of file, -1 on a read error.  fread() on a pipe waits until it has
 * all it asked for, so decoders ask for what their container says
 * comes next, not for a buffer's worth: a reader at the end of a pipe
 * then gets every complete block without waiting for the next one.
 */
extern int pcapint_sfc_fill(struct pcapint_sfc_input *, size_t want);

/*
 * Copy exactly n bytes of input to dst; returns the number copied, which
 * is less than n only at end of file, or -1 on a read error.
 */
extern ssize_t pcapint_sfc_read(struct pcapint_sfc_input *, void *, size_t);

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
	size_t	hint;		/* input the library wants next */
	int	in_unit;
	int64_t	unit_off;
};

/*
 * A codec: how blocks are written into a container and read back.
 * Every container, the "store" one that does not compress included, is
 * a full set of these, so the generic code has no special case.
 */
struct pcapint_sfc_adapt_ladder;

struct pcapint_sfc_codec {
	int		compresses;	/* 0 for "store" */
	int		min_level;
	int		max_level;
	int		default_level;

	/*
	 * Writing.  enc_create() returns codec state for blocks of at
	 * most block_size bytes (with errbuf filled in on failure);
	 * enc_bound() is the largest output enc_block() may produce for
	 * one such block, header and trailer included.  enc_block()
	 * compresses one block into out as one self-contained unit of
	 * its container (a gzip member, an LZ4 or zstd frame, lzop
	 * blocks), points *res at the result and returns its length, or
	 * -1 with errbuf filled in; with try_codec zero it must not
	 * spend CPU on compression and store the data.  *stored is set
	 * when the block went out uncompressed.  enc_header() and
	 * enc_trailer() write a stream header or end marker (lzop) and
	 * return its length, 0 if the container has none.
	 */
	void	*(*enc_create)(int level, size_t block_size, char *errbuf);
	void	(*enc_free)(void *);
	size_t	(*enc_bound)(void *, size_t);
	ssize_t	(*enc_block)(void *, const u_char *, size_t, u_char *, size_t,
		    int try_codec, int *stored, const u_char **res,
		    char *errbuf);
	size_t	(*enc_header)(void *, u_char *);
	size_t	(*enc_trailer)(void *, u_char *);
#define	SFC_MAX_HEADER	64

	/*
	 * Set the level of the blocks enc_block() compresses from now
	 * on, for a dumper that picks the level block by block; cheap
	 * when the level does not change.  The bound of enc_bound() holds
	 * at every level.  Returns 0, or -1 with errbuf filled in.  NULL
	 * for a container with a single level (store, lzop).
	 */
	int	(*enc_level)(void *, int level, char *errbuf);

	/*
	 * Reading.  dec_read() fills at most size bytes and returns a
	 * count, 0 at a clean end or an SFC_DEC_ error; it sets
	 * *unit_off to the raw offset of the block or frame it is in,
	 * for error messages, and *unit_done when the bytes returned
	 * complete that unit and its checksum matched; it returns then,
	 * with 0 bytes if need be, so that no call returns bytes of two
	 * units.  0 without *unit_done is the end of the stream.
	 * Streaming libraries use pcapint_sfc_stream_read() here.
	 */
	void	*(*dec_create)(char *errbuf);
	void	(*dec_free)(void *);
	ssize_t	(*dec_read)(void *, struct pcapint_sfc_input *, u_char *,
		    size_t, int64_t *unit_off, int *unit_done, char *errbuf);

	/*
	 * Non-zero if a new decoder can start reading at any unit, as
	 * gzip members and LZ4 and zstd frames stand alone; a reader
	 * that seeks then jumps to the unit that holds the target.  An
	 * lzop block needs the flags of the file's header, so an lzop
	 * reader seeking backwards starts again from the beginning.
	 */
	int	dec_units_independent;

	/*
	 * Non-zero if a file of the container may end with a seek table
	 * in a skippable frame, which the reader then uses
	 * (sf-compress-seektable.c): zstd and LZ4.
	 */
	int	seek_table;

	/*
	 * The bytes every unit starts with (a zstd or LZ4 frame's magic
	 * number, a gzip member's ID and method), by which a reader finds
	 * the next unit after a damaged one; NULL where units do not
	 * stand alone.
	 */
	const char *unit_magic;

	/*
	 * The codec's levels from the cheapest to the most thorough, for
	 * a dumper whose level adapts (sf-compress-ladders.c); NULL for
	 * a container with a single level.
	 */
	const struct pcapint_sfc_adapt_ladder *ladder;
};

extern ssize_t pcapint_sfc_stream_read(void *, struct pcapint_sfc_input *,
    u_char *, size_t, int64_t *, int *, char *);

/*
 * The containers, in the order of preference for the default: the first
 * one built that compresses is the default.  A row whose codec was not
 * built has ops NULL, so that its files are recognised and refused with
 * a clear message rather than as "unknown file format".  The magic is
 * the container's own signature, all of it (lzop's is 9 bytes); files
 * are recognised by its first SFC_MAGIC_CHECK bytes at most.
 */
enum pcapint_sfc_container_id {
	SFC_STORE,
	SFC_ZSTD,
	SFC_LZ4,
	SFC_GZIP,
	SFC_LZO,
	SFC_NCONTAINERS
};

#define	SFC_MAGIC_MAX	9
#define	SFC_MAGIC_CHECK	4	/* what savefile.c has read when it asks */

struct pcapint_sfc_container {
	const char	*name;
	u_char		magic[SFC_MAGIC_MAX];
	u_int		magic_len;	/* 0 for "store": plain pcap */
	const struct pcapint_sfc_codec *ops;	/* NULL: not built */
};

extern const struct pcapint_sfc_container
    pcapint_sfc_containers[SFC_NCONTAINERS];

#define	SFC_MAGIC(id)	(pcapint_sfc_containers[id].magic)

/*
 * The container whose magic the first SFC_MAGIC_CHECK bytes of a file
 * start with, or NULL; and the refusal of one this build cannot read
 * (returns NULL, for the check_headers[] entry to return).
 */
extern const struct pcapint_sfc_container *pcapint_sfc_container_by_magic(
    const uint8_t *);
extern pcap_t *pcapint_sfc_cannot_read(const struct pcapint_sfc_container *,
    char *errbuf, int *err);

/* The container a codec belongs to, for its name. */
extern const struct pcapint_sfc_container *pcapint_sfc_container_of(
    const struct pcapint_sfc_codec *);

extern const struct pcapint_sfc_codec pcapint_sfc_store;
#ifdef HAVE_ZLIB
extern const struct pcapint_sfc_codec pcapint_sfc_gzip;
#endif
#ifdef HAVE_LIBLZ4
extern const struct pcapint_sfc_codec pcapint_sfc_lz4;
#endif
#ifdef HAVE_LIBZSTD
extern const struct pcapint_sfc_codec pcapint_sfc_zstd;
#endif
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_codec pcapint_sfc_lzo;
#endif

/*
 * Little and big endian stores for the codecs (extract.h has the loads,
 * EXTRACT_BE_U_4() and friends, but no stores).
 */
extern void pcapint_sfc_put_be32(u_char *, uint32_t);
extern void pcapint_sfc_put_le32(u_char *, uint32_t);

/* enc_header() and enc_trailer() of a container that has neither. */
extern size_t pcapint_sfc_no_header(void *, u_char *);

/* max(a, b) of two sizes, for the codecs' bounds. */
#define	SFC_MAX_SIZE(a, b)	((a) > (b) ? (a) : (b))

/*
 * The check_headers[] entry of savefile.c: recognises a compressed
 * container, and returns a pcap_t whose rfile is the decompressing
 * stream.
 */
extern pcap_t *pcapint_compressed_check_header(const uint8_t *, FILE *,
    u_int, char *, int *);

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

#endif
