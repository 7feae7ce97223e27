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
 * The LZ4 container of compressed savefiles: one LZ4 frame (lz4(1)'s
 * format, not bare LZ4 blocks) per block, its XXH32 content checksum
 * checked.  Any other file of lz4(1)'s, of one frame or more, is read too.
 */

#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <lz4frame.h>
#include "sf-compress.h"

struct lz4_dec {
	struct pcapint_sfc_stream s;	/* first: the shared read loop's */
	LZ4F_dctx *dctx;
};

static int
lz4_dec_step(void *state, const u_char *src, size_t *srclen, u_char *dst,
    size_t *dstlen, size_t *hint, char *errbuf)
{
	struct lz4_dec *d = state;
	size_t r = LZ4F_decompress(d->dctx, dst, dstlen, src, srclen, NULL);

	if (LZ4F_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", LZ4F_getErrorName(r));
		return (-1);
	}
	*hint = r;	/* rest of this block, next header; 0 at the end */
	return (r == 0);
}

static void *
lz4_dec_create(char *errbuf)
{
	struct lz4_dec *d;
	size_t r;

	if ((d = pcapint_sfc_calloc(sizeof(*d), errbuf)) == NULL)
		return (NULL);
	r = LZ4F_createDecompressionContext(&d->dctx, LZ4F_VERSION);
	if (LZ4F_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "LZ4F_createDecompressionContext: %s",
		    LZ4F_getErrorName(r));
		free(d);
		return (NULL);
	}
	d->s.step = lz4_dec_step;
	d->s.first_read = LZ4F_HEADER_SIZE_MIN;
	return (d);
}

static void
lz4_dec_free(void *state)
{
	LZ4F_freeDecompressionContext(((struct lz4_dec *)state)->dctx);
	free(state);
}

const struct pcapint_sfc_decoder pcapint_sfc_lz4_decoder = {
	lz4_dec_create, lz4_dec_free, pcapint_sfc_stream_read, 1, 0
};

/* Stored LZ4 blocks: a little-endian length with this bit, the bytes. */
#define	LZ4_STORED		0x80000000U
#define	LZ4_BLOCK_HDR_LEN	4	/* and the end mark, a zero length */

struct lz4_enc {
	LZ4F_cctx *cctx;
	LZ4F_preferences_t prefs;
	size_t	max_block;		/* LZ4 block size of the frames */
	u_char	raw_hdr[LZ4F_HEADER_SIZE_MAX];	/* header of a stored frame */
	size_t	raw_hdr_len;
};

static void *
lz4_enc_create(int level, size_t block_size, char *errbuf)
{
	struct lz4_enc *e;
	LZ4F_preferences_t raw;
	const char *what = "LZ4F_createCompressionContext";
	size_t r;

	if ((e = pcapint_sfc_calloc(sizeof(*e), errbuf)) == NULL)
		return (NULL);
	r = LZ4F_createCompressionContext(&e->cctx, LZ4F_VERSION);
	if (LZ4F_isError(r))
		goto fail;
	/*
	 * The smallest LZ4 block size (64 KiB to 4 MiB) that holds a block
	 * of ours: a frame is one LZ4 block, a reader needs no more memory.
	 */
	e->prefs.frameInfo.blockSizeID = LZ4F_max64KB;
	for (e->max_block = 64 * 1024; e->max_block < block_size &&
	    e->prefs.frameInfo.blockSizeID < LZ4F_max4MB; e->max_block *= 4)
		e->prefs.frameInfo.blockSizeID++;
	e->prefs.frameInfo.blockMode = LZ4F_blockIndependent;
	raw = e->prefs;
	e->prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
	e->prefs.compressionLevel = level;
	/* Stored frames are written by hand, behind a header made once. */
	what = "LZ4F_compressBegin";
	r = LZ4F_compressBegin(e->cctx, e->raw_hdr, sizeof(e->raw_hdr), &raw);
	if (!LZ4F_isError(r)) {
		e->raw_hdr_len = r;
		return (e);
	}
fail:
	snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s: %s", what, LZ4F_getErrorName(r));
	LZ4F_freeCompressionContext(e->cctx);	/* NULL is fine */
	free(e);
	return (NULL);
}

/* liblz4 takes the level from the preferences of every frame. */
static int
lz4_enc_level(void *state, int level, char *errbuf _U_)
{
	((struct lz4_enc *)state)->prefs.compressionLevel = level;
	return (0);
}

static void
lz4_enc_free(void *state)
{
	LZ4F_freeCompressionContext(((struct lz4_enc *)state)->cctx);
	free(state);
}

static size_t
lz4_enc_bound(void *state, size_t len)
{
	struct lz4_enc *e = state;
	size_t nblk = (len + e->max_block - 1) / e->max_block;

	return (SFC_MAX_SIZE(LZ4F_compressFrameBound(len, &e->prefs),
	    e->raw_hdr_len + LZ4_BLOCK_HDR_LEN * (nblk + 1) + len));
}

static ptrdiff_t
lz4_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, const u_char **res,
    char *errbuf)
{
	struct lz4_enc *e = state;
	size_t pos, r, n;

	*res = out;
	if (try_codec) {
		e->prefs.frameInfo.contentSize = len;
		pos = r = LZ4F_compressBegin(e->cctx, out, outsize, &e->prefs);
		if (LZ4F_isError(r))
			goto fail;
		r = LZ4F_compressUpdate(e->cctx, out + pos, outsize - pos,
		    in, len, NULL);
		if (LZ4F_isError(r))
			goto fail;
		pos += r;
		r = LZ4F_compressEnd(e->cctx, out + pos, outsize - pos, NULL);
		if (LZ4F_isError(r))
			goto fail;
		pos += r;
		*stored = pos >= len;	/* liblz4 stored it by itself */
		return ((ptrdiff_t)pos);
	}
	memcpy(out, e->raw_hdr, e->raw_hdr_len);
	for (pos = e->raw_hdr_len; len != 0; in += n, len -= n) {
		n = len > e->max_block ? e->max_block : len;
		pcapint_sfc_put_le32(out + pos, (uint32_t)n | LZ4_STORED);
		memcpy(out + pos + LZ4_BLOCK_HDR_LEN, in, n);
		pos += LZ4_BLOCK_HDR_LEN + n;
	}
	pcapint_sfc_put_le32(out + pos, 0);	/* end mark */
	*stored = 1;
	return ((ptrdiff_t)(pos + LZ4_BLOCK_HDR_LEN));

fail:
	snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", LZ4F_getErrorName(r));
	return (-1);
}

/* Levels as lz4(1) has them; 1 is the fast default, 3 to 12 are LZ4HC. */
const struct pcapint_sfc_encoder pcapint_sfc_lz4_encoder = {
	SFC_LZ4, 1, 1, 12, 1,
	lz4_enc_create, lz4_enc_free, lz4_enc_bound, lz4_enc_block,
	lz4_enc_level, &pcapint_sfc_lz4_ladder, pcapint_sfc_skippable_pad
};
