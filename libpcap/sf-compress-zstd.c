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
 * The zstd container of compressed savefiles: one zstd frame (RFC 8878)
 * per block.  Reading takes any other .zst file as well, whose frames,
 * one or many, libzstd reads as one stream, as zstd(1) does.  Frames
 * that carry a content checksum (XXH64) are checked, so that a damaged
 * block is refused instead of delivering damaged records.
 */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "pcap-int.h"
#include "sf-compress.h"

/*
 * What to read at the start of a frame before libzstd can say how much
 * more it wants: the magic and the frame header descriptor.
 */
#define	ZS_FIRST_READ	5

/*
 * Reading: libzstd's streaming decoder, which checks each frame's
 * checksum at its end, driven by pcapint_sfc_stream_read().
 */
struct zs_dec {
	struct pcapint_sfc_stream s;	/* first: the shared read loop's */
	ZSTD_DStream *ds;
};

static int
zs_dec_step(void *state, const u_char *src, size_t *srclen, u_char *dst,
    size_t *dstlen, size_t *hint, char *errbuf)
{
	struct zs_dec *d = state;
	ZSTD_inBuffer ib;
	ZSTD_outBuffer ob;
	size_t r;

	ib.src = src;
	ib.size = *srclen;
	ib.pos = 0;
	ob.dst = dst;
	ob.size = *dstlen;
	ob.pos = 0;
	r = ZSTD_decompressStream(d->ds, &ob, &ib);
	*srclen = ib.pos;
	*dstlen = ob.pos;
	if (ZSTD_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", ZSTD_getErrorName(r));
		return (-1);
	}
	/* 0 when the frame is complete and its checksum matched. */
	*hint = r;
	return (r == 0);
}

static void *
zs_dec_create(char *errbuf)
{
	struct zs_dec *d;

	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	d->ds = ZSTD_createDStream();
	if (d->ds == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "ZSTD_createDStream failed");
		free(d);
		return (NULL);
	}
	d->s.step = zs_dec_step;
	d->s.first_read = ZS_FIRST_READ;
	return (d);
}

static void
zs_dec_free(void *state)
{
	struct zs_dec *d = state;

	ZSTD_freeDStream(d->ds);
	free(d);
}

const struct pcapint_sfc_decoder pcapint_sfc_zstd_decoder = {
	zs_dec_create, zs_dec_free, pcapint_sfc_stream_read,
	1, 1,
	"\x28\xb5\x2f\xfd"	/* 0xFD2FB528, little-endian */
};

/*
 * Writing.  zstd(1) and libzstd read concatenated frames as one stream,
 * so the file is an ordinary .zst file, and since each frame stands
 * alone a file cut between two frames is still a valid one.
 *
 * Every frame carries a content checksum (XXH64), so that the reader
 * can refuse a damaged block instead of delivering damaged records.
 */

/*
 * A block that is not worth compressing is written as a frame we make
 * by hand, without asking libzstd to look at it: the magic, a frame
 * header descriptor with no content size, checksum or dictionary, a
 * window descriptor of 128 KiB (exponent 7 above the 1 KiB minimum),
 * then "raw" blocks of at most 128 KiB, the largest the format allows,
 * each behind a 3-byte little-endian header (size << 3, block type 0
 * "raw" in bits 1-2, and bit 0 set on the last block).
 */
#define	ZS_RAW_MAX	(128 * 1024)
#define	ZS_FHD_NONE	0x00
#define	ZS_WD_128K	((17 - 10) << 3)
#define	ZS_RAW_HDR_LEN	3
#define	ZS_FRAME_HDR_LEN	6	/* magic, FHD, window descriptor */

/*
 * Levels as zstd(1) has them: 1 to 19, and -1 to -100 for its --fast=1
 * to --fast=100; 0 is libzstd's default level, 3.  The default is -5,
 * the fastest setting that stores HTTP traffic in less than a quarter of
 * its size; faster settings are no quicker and write more.
 */
#define	ZS_MIN_LEVEL		(-100)
#define	ZS_MAX_LEVEL		19
#define	ZS_DEFAULT_LEVEL	(-5)

struct zs_enc {
	ZSTD_CCtx *cctx;
	int	level;		/* the level set; ZS_NO_LEVEL at first */
};

#define	ZS_NO_LEVEL	INT_MIN

/*
 * libzstd's own parameters for the level and the block's size, as
 * zstd(1) uses them for a file of that size.  Below level 0, a 4096-
 * entry hash table and 7-byte minimum matches are a little faster on
 * generated HTTP frames, but write markedly more of real traffic in
 * large blocks: a table that small forgets a match long before the end
 * of the block.
 */
static int
zs_enc_level(void *state, int level, char *errbuf)
{
	struct zs_enc *e = state;

	if (level == e->level)
		return (0);
	if (ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx,
	    ZSTD_c_compressionLevel, level))) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "can't set zstd compression level %d", level);
		return (-1);
	}
	e->level = level;
	return (0);
}

static void *
zs_enc_create(int level, size_t block_size _U_, char *errbuf)
{
	struct zs_enc *e;

	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	e->cctx = ZSTD_createCCtx();
	if (e->cctx == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "ZSTD_createCCtx failed");
		free(e);
		return (NULL);
	}
	e->level = ZS_NO_LEVEL;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx,
	    ZSTD_c_checksumFlag, 1))) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "can't turn zstd frame checksums on");
		ZSTD_freeCCtx(e->cctx);
		free(e);
		return (NULL);
	}
	if (zs_enc_level(e, level, errbuf) == -1) {
		ZSTD_freeCCtx(e->cctx);
		free(e);
		return (NULL);
	}
	return (e);
}

static void
zs_enc_free(void *state)
{
	struct zs_enc *e = state;

	ZSTD_freeCCtx(e->cctx);
	free(e);
}

/* Length of a stored frame of len bytes: header, then raw blocks. */
static size_t
zs_stored_len(size_t len)
{
	size_t nblk;

	nblk = len == 0 ? 1 : (len + ZS_RAW_MAX - 1) / ZS_RAW_MAX;
	return (ZS_FRAME_HDR_LEN + ZS_RAW_HDR_LEN * nblk + len);
}

static size_t
zs_enc_bound(void *state _U_, size_t len)
{
	return (SFC_MAX_SIZE(ZSTD_compressBound(len), zs_stored_len(len)));
}

static ptrdiff_t
zs_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, const u_char **res,
    char *errbuf)
{
	struct zs_enc *e = state;
	size_t r, pos, n;
	uint32_t bh;

	*res = out;
	if (try_codec) {
		r = ZSTD_compress2(e->cctx, out, outsize, in, len);
		if (ZSTD_isError(r)) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
			    ZSTD_getErrorName(r));
			return (-1);
		}
		/*
		 * libzstd stores blocks that do not shrink by itself;
		 * count the frame as stored when it saved nothing.
		 */
		*stored = r >= len;
		return ((ptrdiff_t)r);
	}
	memcpy(out, SFC_MAGIC(SFC_ZSTD), 4);
	out[4] = ZS_FHD_NONE;
	out[5] = ZS_WD_128K;
	pos = ZS_FRAME_HDR_LEN;
	do {
		n = len > ZS_RAW_MAX ? ZS_RAW_MAX : len;
		bh = (uint32_t)n << 3 | (n == len ? 1 : 0);
		out[pos] = (u_char)bh;
		out[pos + 1] = (u_char)(bh >> 8);
		out[pos + 2] = (u_char)(bh >> 16);
		memcpy(out + pos + ZS_RAW_HDR_LEN, in, n);
		pos += ZS_RAW_HDR_LEN + n;
		in += n;
		len -= n;
	} while (len != 0);
	*stored = 1;
	return ((ptrdiff_t)pos);
}

const struct pcapint_sfc_encoder pcapint_sfc_zstd_encoder = {
	SFC_ZSTD, 1,
	ZS_MIN_LEVEL, ZS_MAX_LEVEL, ZS_DEFAULT_LEVEL,
	zs_enc_create, zs_enc_free, zs_enc_bound, zs_enc_block,
	pcapint_sfc_no_header, pcapint_sfc_no_header, zs_enc_level,
	&pcapint_sfc_zstd_ladder
};
