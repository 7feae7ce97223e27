/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Compressed savefiles: internal interface between the generic code in
 * sf-compress.c (options, the writing and reading cookie streams) and
 * the per-container codec files (sf-compress-zlib.c, sf-compress-lz4.c,
 * sf-compress-zstd.c, sf-compress-lzo.c).
 */

#ifndef sf_compress_h
#define	sf_compress_h

#include <stdio.h>
#include <stdint.h>

#include "pcap/pcap.h"

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
 * the caller adds together with the codec name).
 */
#define	SFC_DEC_TRUNCATED	(-1)	/* stream ends inside a block */
#define	SFC_DEC_CORRUPT		(-2)	/* errbuf says why; *bad_off says where */
#define	SFC_DEC_IOERR		(-3)	/* raw read error, errno in input->ioerr */

struct pcapint_sfc_codec {
	const char	*name;
	int		min_level;
	int		max_level;
	int		default_level;

	/*
	 * Writing.  enc_create() returns codec state for blocks of at
	 * most block_size bytes; enc_bound() is the largest output
	 * enc_block() may produce for one such block, header and
	 * trailer included.  enc_block() compresses one block into out
	 * as one self-contained unit of its container (a gzip member,
	 * an LZ4 or zstd frame, lzop blocks) and returns its length;
	 * with try_codec zero it must not spend CPU on compression and
	 * store the data.  *stored is set when the block went out
	 * uncompressed.  enc_header()/enc_trailer() are optional,
	 * for containers with a stream header or end marker.
	 */
	void	*(*enc_create)(int level, size_t block_size, char *errbuf);
	void	(*enc_free)(void *);
	size_t	(*enc_bound)(void *, size_t);
	ssize_t	(*enc_block)(void *, const u_char *, size_t, u_char *, size_t,
		    int try_codec, int *stored, char *errbuf);
	size_t	(*enc_header)(void *, u_char *);
	size_t	(*enc_trailer)(void *, u_char *);
#define	SFC_MAX_HEADER	64

	/*
	 * Reading.  dec_read() fills at most size bytes and returns a
	 * count, 0 at a clean end or an SFC_DEC_ error; it sets
	 * *unit_off to the raw offset of the block or frame it is in,
	 * for error messages, and *unit_done when the bytes returned
	 * complete that unit and its checksum matched; it returns then,
	 * with 0 bytes if need be, so that no call returns bytes of two
	 * units.  0 without *unit_done is the end of the stream.
	 */
	void	*(*dec_create)(char *errbuf);
	void	(*dec_free)(void *);
	ssize_t	(*dec_read)(void *, struct pcapint_sfc_input *, u_char *,
		    size_t, int64_t *unit_off, int *unit_done, char *errbuf);
};

/*
 * The adaptive skip of sf-compress.c decides whether to try the codec
 * on block n from the results of blocks up to n - SFC_SKIP_LAG only,
 * so that it decides the same whether or not blocks are compressed in
 * parallel (sf-compress-jobs.c, where this is the number of block
 * slots), and the same input gives the same file either way.
 */
#define	SFC_SKIP_LAG	4

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

/* Helpers for the codecs: big and little endian stores and loads. */
extern void pcapint_sfc_put_be32(u_char *, uint32_t);
extern void pcapint_sfc_put_le32(u_char *, uint32_t);
extern uint32_t pcapint_sfc_get_be32(const u_char *);

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
