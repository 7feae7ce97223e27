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
 * per block, its XXH64 content checksum checked.  Any other .zst file is
 * read too, its frames as one stream, as zstd(1) does.
 */

#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "sf-compress.h"

struct zs_dec {
	struct pcapint_sfc_stream s;	/* first: the shared read loop's */
	ZSTD_DStream *ds;
};

static int
zs_dec_step(void *state, const u_char *src, size_t *srclen, u_char *dst,
    size_t *dstlen, size_t *hint, char *errbuf)
{
	struct zs_dec *d = state;
	ZSTD_inBuffer ib = { src, *srclen, 0 };
	ZSTD_outBuffer ob = { dst, *dstlen, 0 };
	size_t r = ZSTD_decompressStream(d->ds, &ob, &ib);

	*srclen = ib.pos;
	*dstlen = ob.pos;
	if (ZSTD_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", ZSTD_getErrorName(r));
		return (-1);
	}
	*hint = r;	/* 0: the frame ended and its checksum matched */
	return (r == 0);
}

static void *
zs_dec_create(char *errbuf)
{
	struct zs_dec *d;

	if ((d = pcapint_sfc_calloc(sizeof(*d), errbuf)) == NULL)
		return (NULL);
	if ((d->ds = ZSTD_createDStream()) == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "ZSTD_createDStream failed");
		free(d);
		return (NULL);
	}
	d->s.step = zs_dec_step;
	d->s.first_read = 5;	/* the magic and the frame header descriptor */
	return (d);
}

static void
zs_dec_free(void *state)
{
	ZSTD_freeDStream(((struct zs_dec *)state)->ds);
	free(state);
}

const struct pcapint_sfc_decoder pcapint_sfc_zstd_decoder = {
	zs_dec_create, zs_dec_free, pcapint_sfc_stream_read, 1, 1
};

/* Stored frames' raw blocks: 3 bytes LE, size << 3 | type 0 << 1 | last. */
#define	ZS_RAW_MAX	(128 * 1024)
#define	ZS_RAW_HDR_LEN	3
#define	ZS_FRAME_HDR_LEN	6	/* magic, FHD, window descriptor */

/*
 * The state is the ZSTD_CCtx, which keeps a level until a frame starts.
 * libzstd sizes its tables for it and the block: smaller forget matches.
 */
static int
zs_enc_level(void *state, int level, char *errbuf)
{
	if (ZSTD_isError(ZSTD_CCtx_setParameter(state,
	    ZSTD_c_compressionLevel, level))) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "can't set zstd compression level %d", level);
		return (-1);
	}
	return (0);
}

static void *
zs_enc_create(int level, size_t block_size _U_, char *errbuf)
{
	ZSTD_CCtx *cctx;

	if ((cctx = ZSTD_createCCtx()) == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "ZSTD_createCCtx failed");
		return (NULL);
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)))
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "can't turn zstd frame checksums on");
	else if (zs_enc_level(cctx, level, errbuf) == 0)
		return (cctx);
	ZSTD_freeCCtx(cctx);
	return (NULL);
}

static void
zs_enc_free(void *state)
{
	ZSTD_freeCCtx(state);
}

static size_t
zs_enc_bound(void *state _U_, size_t len)
{
	size_t nblk = len == 0 ? 1 : (len + ZS_RAW_MAX - 1) / ZS_RAW_MAX;

	return (SFC_MAX_SIZE(ZSTD_compressBound(len),
	    ZS_FRAME_HDR_LEN + ZS_RAW_HDR_LEN * nblk + len));
}

static ptrdiff_t
zs_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, const u_char **res,
    char *errbuf)
{
	size_t r, pos, n;
	uint32_t bh;

	*res = out;
	if (try_codec) {
		r = ZSTD_compress2(state, out, outsize, in, len);
		if (ZSTD_isError(r)) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
			    ZSTD_getErrorName(r));
			return (-1);
		}
		*stored = r >= len;	/* libzstd stored it by itself */
		return ((ptrdiff_t)r);
	}
	memcpy(out, SFC_MAGIC(SFC_ZSTD), 4);
	out[4] = 0;		/* no content size, checksum or dictionary */
	out[5] = (17 - 10) << 3;	/* window: 2^17, 128 KiB */
	*stored = 1;
	for (pos = ZS_FRAME_HDR_LEN;; in += n, len -= n) {
		n = len > ZS_RAW_MAX ? ZS_RAW_MAX : len;
		bh = (uint32_t)n << 3 | (n == len);	/* raw, last or not */
		out[pos] = (u_char)bh;
		out[pos + 1] = (u_char)(bh >> 8);
		out[pos + 2] = (u_char)(bh >> 16);
		memcpy(out + pos + ZS_RAW_HDR_LEN, in, n);
		pos += ZS_RAW_HDR_LEN + n;
		if (n == len)
			return ((ptrdiff_t)pos);
	}
}

/*
 * Levels as zstd(1) has them, -100 (--fast=100) to 19, 0 meaning 3.  Ours,
 * -5, is the fastest that still compresses well: faster is no quicker.
 */
const struct pcapint_sfc_encoder pcapint_sfc_zstd_encoder = {
	SFC_ZSTD, 1, -100, 19, -5,
	zs_enc_create, zs_enc_free, zs_enc_bound, zs_enc_block, zs_enc_level,
	&pcapint_sfc_zstd_ladder, pcapint_sfc_skippable_pad
};
