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
 * Compressed savefiles, reading: the interface between the reader
 * (sf-compress-read.c) and the containers' decoders, one file each:
 * sf-compress-zlib-decode.c (gzip), sf-compress-lz4-decode.c (LZ4
 * frames) and sf-compress-zstd-decode.c (zstd frames).  The table of
 * containers, with their names and magic numbers, is declared in
 * sf-compress-containers.h and defined in sf-compress-read.c.
 */

#ifndef sf_compress_h
#define	sf_compress_h

#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "pcap/pcap.h"
#include "sf-compress-containers.h"

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
extern ssize_t pcapint_sfc_read(struct pcapint_sfc_input *, void *, size_t);
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
	ssize_t	(*dec_read)(void *, struct pcapint_sfc_input *, u_char *,
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

extern ssize_t pcapint_sfc_stream_read(void *, struct pcapint_sfc_input *,
    u_char *, size_t, int64_t *, int *, char *);

#endif
