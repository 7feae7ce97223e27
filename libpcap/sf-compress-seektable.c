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
 * Seek tables at the end of zstd savefiles, which the reader
 * uses to seek without decompressing.
 *
 * Finding the end of a compressed savefile, or the block that holds an
 * offset the reader has not yet passed, otherwise means decompressing
 * everything before it: a program that seeks to the end of a capture
 * first, as tcpslice does, decompresses the whole file once.  A file in
 * the zstd project's "seekable format" (contrib/seekable_format in the
 * zstd sources, written by its seekable API and by tools such as t2sz)
 * ends with a table of each frame's compressed and uncompressed size,
 * in a skippable frame:
 *
 *	magic 0x184D2A5E, frame size		4 + 4 bytes, little-endian
 *	per frame: compressed size, uncompressed size[, checksum]  4 + 4 [+ 4]
 *	number of frames, descriptor, magic 0x8F92EAB1	4 + 1 + 4
 *
 * The table is used only if it adds up to the file's size exactly;
 * otherwise the file is read as if it had none.
 */

#include <config.h>

#include "ftmacros.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "pcap-int.h"
#include "extract.h"
#include "sf-compress.h"
#include "sf-compress-seektable.h"

#define	SEEKTABLE_SKIPPABLE_MAGIC	0x184D2A5EU
#define	SEEKTABLE_FOOTER_MAGIC		0x8F92EAB1U
#define	SEEKTABLE_FRAME_HDR		8	/* magic, frame size */
#define	SEEKTABLE_ENTRY			8	/* two sizes */
#define	SEEKTABLE_ENTRY_CHECKSUM	12	/* ... and a checksum */
#define	SEEKTABLE_FOOTER		9
#define	SEEKTABLE_CHECKSUM_FLAG		0x80
#define	SEEKTABLE_RESERVED_BITS		0x7C
#define	SEEKTABLE_MAX			(64 * 1024 * 1024)

static int
sfc_seektable_read_at(FILE *raw, int64_t off, void *buf, size_t len)
{
	if (fseeko(raw, (off_t)off, SEEK_SET) != 0)
		return (-1);
	return (fread(buf, 1, len, raw) == len ? 0 : -1);
}

/*
 * The table of the stream that starts at base in raw and takes size
 * bytes from there, checked against that size; -1 if it does not fit.
 */
static int
sfc_seektable_load(FILE *raw, int64_t base, int64_t size,
    struct pcapint_sfc_unit_start **res, size_t *nres, int64_t *end_uoff)
{
	struct pcapint_sfc_unit_start *u;
	u_char foot[SEEKTABLE_FOOTER], hdr[SEEKTABLE_FRAME_HDR];
	u_char *t;
	uint32_t n, esize;
	int64_t tlen, coff, uoff;
	size_t i;

	if (size < SEEKTABLE_FRAME_HDR + SEEKTABLE_FOOTER ||
	    sfc_seektable_read_at(raw, base + size - SEEKTABLE_FOOTER, foot,
	    sizeof(foot)) != 0 ||
	    EXTRACT_LE_U_4(foot + 5) != SEEKTABLE_FOOTER_MAGIC ||
	    (foot[4] & SEEKTABLE_RESERVED_BITS) != 0)
		return (-1);
	n = EXTRACT_LE_U_4(foot);
	esize = (foot[4] & SEEKTABLE_CHECKSUM_FLAG) ?
	    SEEKTABLE_ENTRY_CHECKSUM : SEEKTABLE_ENTRY;
	/* Every block takes at least a byte: n is bounded by the size. */
	tlen = (int64_t)n * esize + SEEKTABLE_FOOTER;
	if (n == 0 || tlen + SEEKTABLE_FRAME_HDR + (int64_t)n > size ||
	    sfc_seektable_read_at(raw, base + size - tlen - SEEKTABLE_FRAME_HDR,
	    hdr, sizeof(hdr)) != 0 ||
	    EXTRACT_LE_U_4(hdr) != SEEKTABLE_SKIPPABLE_MAGIC ||
	    EXTRACT_LE_U_4(hdr + 4) != (uint64_t)tlen)
		return (-1);
	/*
	 * A larger table, of millions of blocks, is not used: the file
	 * is read from its start instead.  That keeps the sizes taken
	 * from the file within any size_t.
	 */
	if (tlen > SEEKTABLE_MAX)
		return (-1);
	t = malloc((size_t)tlen);
	u = malloc(((size_t)n + 1) * sizeof(*u));
	if (t == NULL || u == NULL ||
	    sfc_seektable_read_at(raw, base + size - tlen, t,
	    (size_t)tlen) != 0) {
		free(t);
		free(u);
		return (-1);
	}
	coff = uoff = 0;
	for (i = 0; i < n; i++) {
		u[i].coff = coff;
		u[i].uoff = uoff;
		/* The compressed sizes are bounded by the file's size. */
		coff += EXTRACT_LE_U_4(t + i * esize);
		if (coff > size || uoff > INT64_MAX - UINT32_MAX) {
			free(t);
			free(u);
			return (-1);
		}
		uoff += EXTRACT_LE_U_4(t + i * esize + 4);
	}
	free(t);
	/* The blocks and the table make up the file, exactly. */
	if (coff + SEEKTABLE_FRAME_HDR + tlen != size) {
		free(u);
		return (-1);
	}
	/* The table starts a unit of its own, of no data. */
	u[n].coff = coff;
	u[n].uoff = uoff;
	*res = u;
	*nres = (size_t)n + 1;
	*end_uoff = uoff;
	return (0);
}

int
pcapint_sfc_seektable_read(FILE *raw, int64_t base,
    struct pcapint_sfc_unit_start **res, size_t *nres, int64_t *end_uoff)
{
	off_t here, size;
	int ret;

	here = ftello(raw);
	if (here < 0 || fseeko(raw, 0, SEEK_END) != 0)
		return (-1);
	size = ftello(raw);
	ret = size < base ? -1 :
	    sfc_seektable_load(raw, base, (int64_t)size - base, res, nres, end_uoff);
	if (fseeko(raw, here, SEEK_SET) != 0) {
		if (ret == 0)
			free(*res);
		return (-1);
	}
	return (ret);
}
