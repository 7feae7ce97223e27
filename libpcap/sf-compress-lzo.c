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
 * The lzop container of compressed savefiles, with LZO1X-1; any other
 * lzop file of LZO1X blocks is read too.  Built only --with-lzo, as
 * liblzo2 is GPL-2.0-or-later and so then is libpcap.
 *
 * An lzop file is a header and blocks, each with its uncompressed and
 * compressed length (equal: stored) and an Adler-32 of the data.  A zero
 * uncompressed length ends the stream; a file cut at a block boundary
 * lacks it, which lzop -d reports but our reader accepts.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lzo/lzo1x.h>

#include "pcap-int.h"
#include "extract.h"
#include "sf-compress.h"

/*
 * lzop's block size and the largest it accepts.  We claim to be lzop
 * 1.04; 0.94, the oldest that reads what we write, is the first whose
 * header has the needed version and the level.
 */
#define	LZOP_BLOCK		(256 * 1024)
#define	LZOP_MAX_BLOCK		(64 * 1024 * 1024)
#define	LZOP_VERSION		0x1040
#define	LZOP_NEEDED		0x0940
#define	LZOP_BLOCK_HDR_LEN	12	/* lengths and the data's Adler-32 */
#define	LZOP_LEVEL		5	/* what lzop records for -1 to -6 */
#define	LZOP_MODE		0100644	/* a regular file, rw-r--r-- */

/* Compression methods lzop writes; we read all three, write the first. */
#define	LZOP_M_LZO1X_1		1
#define	LZOP_M_LZO1X_1_15	2
#define	LZOP_M_LZO1X_999	3

/* Header flags: which checksums the blocks carry, and what we refuse. */
#define	F_ADLER32_D	0x00000001U
#define	F_ADLER32_C	0x00000002U
#define	F_H_EXTRA_FIELD	0x00000040U
#define	F_CRC32_D	0x00000100U
#define	F_CRC32_C	0x00000200U
#define	F_H_FILTER	0x00000800U
#define	F_H_CRC32	0x00001000U
#define	F_OS_UNIX	0x03000000U

#define	LZOP_MAGIC	SFC_MAGIC(SFC_LZO)
#define	LZOP_MAGIC_LEN	(pcapint_sfc_containers[SFC_LZO].magic_len)

/* lzop's numbers are big-endian. */
static void
lzo_put_be32(u_char *p, uint32_t v)
{
	p[0] = (u_char)(v >> 24);
	p[1] = (u_char)(v >> 16);
	p[2] = (u_char)(v >> 8);
	p[3] = (u_char)v;
}

/*
 * The state of a decoder or encoder.  lzo_init() checks that the
 * library suits this build, and may be called any number of times, so
 * it is called for each state: a flag of ours saying that it was would
 * be shared by threads opening dumpers at once.
 */
static void *
lzo_alloc(size_t size, char *errbuf)
{
	if (lzo_init() != LZO_E_OK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "lzo_init failed");
		return (NULL);
	}
	return (pcapint_sfc_calloc(size, errbuf));
}

/*
 * Reading: the header, then each block, checked and decompressed whole
 * before any of it is returned; not pcapint_sfc_stream_read()'s loop.
 */
struct lzo_dec {
	int	have_header;
	int	done;
	uint32_t flags;
	int	method;
	int64_t	block_off;
	u_char	*cbuf;
	u_char	*dbuf;
	size_t	dsize;		/* allocated size of cbuf and dbuf */
	size_t	dlen;		/* bytes in dbuf */
	size_t	dpos;		/* bytes of dbuf already returned */
};

static void *
lzo_dec_create(char *errbuf)
{
	return (lzo_alloc(sizeof(struct lzo_dec), errbuf));
}

static void
lzo_dec_free(void *state)
{
	struct lzo_dec *d = state;

	free(d->cbuf);
	free(d->dbuf);
	free(d);
}

/*
 * Read n bytes into p: 1 if all came, 0 at end of file before the first,
 * SFC_DEC_TRUNCATED or SFC_DEC_IOERR otherwise.
 */
static int
lzo_get(struct pcapint_sfc_input *in, void *p, size_t n, int eof_ok)
{
	ptrdiff_t r;

	r = pcapint_sfc_read(in, p, n);
	if (r < 0)
		return (SFC_DEC_IOERR);
	if ((size_t)r == n)
		return (1);
	if (r == 0 && eof_ok)
		return (0);
	return (SFC_DEC_TRUNCATED);
}

static int
lzo_read_header(struct lzo_dec *d, struct pcapint_sfc_input *in,
    char *errbuf)
{
	u_char h[300];
	size_t n, namelen;
	uint32_t want;
	int r, v094;

	if ((r = lzo_get(in, h, 9, 0)) != 1)
		return (r);
	if (memcmp(h, LZOP_MAGIC, LZOP_MAGIC_LEN) != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "bad lzop magic");
		return (SFC_DEC_CORRUPT);
	}
	/* version, lib version, [needed], method, [level], flags */
	if ((r = lzo_get(in, h, 4, 0)) != 1)
		return (r);
	v094 = ((u_int)h[0] << 8 | h[1]) >= LZOP_NEEDED;
	n = v094 ? 12 : 9;
	if ((r = lzo_get(in, h + 4, n - 4, 0)) != 1)
		return (r);
	d->method = h[v094 ? 6 : 4];
	d->flags = EXTRACT_BE_U_4(h + n - 4);
	if (d->flags & F_H_FILTER) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "lzop filters are not supported");
		return (SFC_DEC_CORRUPT);
	}
	/* mode, mtime low, [mtime high], name length */
	if ((r = lzo_get(in, h + n, v094 ? 13 : 9, 0)) != 1)
		return (r);
	n += v094 ? 13 : 9;
	namelen = h[n - 1];
	if ((r = lzo_get(in, h + n, namelen + 4, 0)) != 1)	/* and sum */
		return (r);
	n += namelen;
	want = (d->flags & F_H_CRC32) ? lzo_crc32(0, h, (lzo_uint)n) :
	    lzo_adler32(1, h, (lzo_uint)n);
	if (EXTRACT_BE_U_4(h + n) != want) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "lzop header checksum error");
		return (SFC_DEC_CORRUPT);
	}
	if (d->flags & F_H_EXTRA_FIELD) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "lzop extra header fields are not supported");
		return (SFC_DEC_CORRUPT);
	}
	if (d->method != LZOP_M_LZO1X_1 && d->method != LZOP_M_LZO1X_1_15 &&
	    d->method != LZOP_M_LZO1X_999) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "unsupported lzop method %d", d->method);
		return (SFC_DEC_CORRUPT);
	}
	d->have_header = 1;
	return (1);
}

static int
lzo_check(uint32_t flags, uint32_t adler_flag, uint32_t crc_flag,
    const u_char *sums, const u_char *p, size_t n)
{
	if ((flags & adler_flag) &&
	    EXTRACT_BE_U_4(sums) != lzo_adler32(1, p, (lzo_uint)n))
		return (-1);
	if (flags & adler_flag)
		sums += 4;
	if ((flags & crc_flag) &&
	    EXTRACT_BE_U_4(sums) != lzo_crc32(0, p, (lzo_uint)n))
		return (-1);
	return (0);
}

static int
lzo_read_block(struct lzo_dec *d, struct pcapint_sfc_input *in,
    char *errbuf)
{
	u_char h[8], sums[16];
	uint32_t dlen, clen;
	size_t nd, nc;
	lzo_uint outlen;
	int r;

	d->block_off = SFC_INPUT_OFFSET(in);
	if ((r = lzo_get(in, h, 4, 1)) != 1)
		return (r);	/* 0: cut at a block boundary, a clean end */
	dlen = EXTRACT_BE_U_4(h);
	if (dlen == 0) {
		d->done = 1;
		return (0);
	}
	if ((r = lzo_get(in, h + 4, 4, 0)) != 1)
		return (r);
	clen = EXTRACT_BE_U_4(h + 4);
	if (dlen > LZOP_MAX_BLOCK || clen > dlen) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "bad lzop block lengths %u/%u", clen, dlen);
		return (SFC_DEC_CORRUPT);
	}
	nd = ((d->flags & F_ADLER32_D) ? 4 : 0) + ((d->flags & F_CRC32_D) ? 4 : 0);
	nc = ((d->flags & F_ADLER32_C) ? 4 : 0) + ((d->flags & F_CRC32_C) ? 4 : 0);
	if (clen == dlen)
		nc = 0;		/* stored: no checksum of compressed data */
	if ((r = lzo_get(in, sums, nd + nc, 0)) != 1)	/* data's first */
		return (r);
	if (dlen > d->dsize) {
		free(d->cbuf);
		free(d->dbuf);
		d->dsize = 0;
		d->cbuf = malloc(dlen);
		d->dbuf = malloc(dlen);
		if (d->cbuf == NULL || d->dbuf == NULL) {
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    errno, "malloc");
			return (SFC_DEC_FAILED);
		}
		d->dsize = dlen;
	}
	if (clen == dlen) {
		if ((r = lzo_get(in, d->dbuf, dlen, 0)) != 1)
			return (r);
	} else {
		if ((r = lzo_get(in, d->cbuf, clen, 0)) != 1)
			return (r);
		if (nc != 0 && lzo_check(d->flags, F_ADLER32_C, F_CRC32_C,
		    sums + nd, d->cbuf, clen) != 0) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "checksum error in compressed data");
			return (SFC_DEC_CORRUPT);
		}
		outlen = dlen;
		if (lzo1x_decompress_safe(d->cbuf, clen, d->dbuf, &outlen,
		    NULL) != LZO_E_OK || outlen != dlen) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "LZO1X decompression failed");
			return (SFC_DEC_CORRUPT);
		}
	}
	if (nd != 0 && lzo_check(d->flags, F_ADLER32_D, F_CRC32_D, sums,
	    d->dbuf, dlen) != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "checksum error in decompressed data");
		return (SFC_DEC_CORRUPT);
	}
	d->dlen = dlen;
	d->dpos = 0;
	return (1);
}

static ptrdiff_t
lzo_dec_read(void *state, struct pcapint_sfc_input *in, u_char *buf,
    size_t size, int64_t *unit_off, int *unit_done, char *errbuf)
{
	struct lzo_dec *d = state;
	size_t n;
	int r;

	*unit_off = d->block_off;
	*unit_done = 0;
	if (!d->have_header) {
		r = lzo_read_header(d, in, errbuf);
		if (r != 1)
			return (r == 0 ? SFC_DEC_TRUNCATED : r);
	}
	while (d->dpos == d->dlen) {
		if (d->done)
			return (0);
		r = lzo_read_block(d, in, errbuf);
		*unit_off = d->block_off;
		if (r != 1)
			return (r);
	}
	n = d->dlen - d->dpos;
	if (n > size)
		n = size;
	memcpy(buf, d->dbuf + d->dpos, n);
	d->dpos += n;
	*unit_done = d->dpos == d->dlen;
	return ((ptrdiff_t)n);
}

const struct pcapint_sfc_decoder pcapint_sfc_lzo_decoder = {
	lzo_dec_create, lzo_dec_free, lzo_dec_read,
	0, 0
};

/* Writing, with LZO1X-1, in lzop blocks of LZOP_BLOCK at most. */
struct lzo_enc {
	u_char	wrkmem[LZO1X_1_MEM_COMPRESS];
};

static void *
lzo_enc_create(int level _U_, size_t block_size _U_, char *errbuf)
{
	return (lzo_alloc(sizeof(struct lzo_enc), errbuf));
}

static void
lzo_enc_free(void *state)
{
	free(state);
}

/* LZO1X's worst case for n bytes, from the LZO documentation. */
#define	LZO1X_WORST(n)	((n) + (n) / 16 + 64 + 3)

static size_t
lzo_enc_bound(void *state _U_, size_t len)
{
	size_t nblk = (len + LZOP_BLOCK - 1) / LZOP_BLOCK;

	/* Blocks that do not shrink are stored: only one may overshoot. */
	return (len + LZOP_BLOCK_HDR_LEN * nblk + LZO1X_WORST(LZOP_BLOCK) -
	    LZOP_BLOCK);
}

/* The file header; mtime 0, so that the same records make the same file. */
size_t
pcapint_sfc_lzo_header(u_char *out)
{
	u_char *h = out + LZOP_MAGIC_LEN;

	memcpy(out, LZOP_MAGIC, LZOP_MAGIC_LEN);
	h[0] = LZOP_VERSION >> 8;
	h[1] = LZOP_VERSION & 0xff;
	h[2] = (u_char)(lzo_version() >> 8);
	h[3] = (u_char)lzo_version();
	h[4] = LZOP_NEEDED >> 8;
	h[5] = LZOP_NEEDED & 0xff;
	h[6] = LZOP_M_LZO1X_1;
	h[7] = LZOP_LEVEL;
	lzo_put_be32(h + 8, F_OS_UNIX | F_ADLER32_D);
	lzo_put_be32(h + 12, LZOP_MODE);
	lzo_put_be32(h + 16, 0);	/* mtime, low */
	lzo_put_be32(h + 20, 0);	/* mtime, high */
	h[24] = 0;				/* no file name */
	lzo_put_be32(h + 25, lzo_adler32(1, h, 25));
	return (LZOP_MAGIC_LEN + 29);
}

/* The end of the stream: a block with an uncompressed length of 0. */
size_t
pcapint_sfc_lzo_trailer(u_char *out)
{
	lzo_put_be32(out, 0);
	return (4);
}

static ptrdiff_t
lzo_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize _U_, int try_codec, int *stored, const u_char **res,
    char *errbuf)
{
	struct lzo_enc *e = state;
	size_t pos = 0, n;
	lzo_uint clen;
	int all_stored = 1;

	*res = out;
	while (len != 0) {
		n = len > LZOP_BLOCK ? LZOP_BLOCK : len;
		lzo_put_be32(out + pos, (uint32_t)n);
		lzo_put_be32(out + pos + 8, lzo_adler32(1, in, n));
		clen = n;
		if (try_codec) {
			if (lzo1x_1_compress(in, n, out + pos + LZOP_BLOCK_HDR_LEN, &clen,
			    e->wrkmem) != LZO_E_OK) {
				snprintf(errbuf, PCAP_ERRBUF_SIZE,
				    "lzo1x_1_compress failed");
				return (-1);
			}
		}
		/* lzop stores a block that does not shrink. */
		if (clen >= n) {
			clen = n;
			memcpy(out + pos + LZOP_BLOCK_HDR_LEN, in, n);
		} else
			all_stored = 0;
		lzo_put_be32(out + pos + 4, (uint32_t)clen);
		pos += LZOP_BLOCK_HDR_LEN + clen;
		in += n;
		len -= n;
	}
	*stored = all_stored;
	return ((ptrdiff_t)pos);
}

/* LZO1X-1 has one level. */
const struct pcapint_sfc_encoder pcapint_sfc_lzo_encoder = {
	SFC_LZO, 1,
	1, 1, 1,
	lzo_enc_create, lzo_enc_free, lzo_enc_bound, lzo_enc_block,
	NULL, NULL, NULL	/* one level: no ladder; no pad */
};
