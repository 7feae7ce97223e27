/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * LZ4 frame container for compressed savefiles: one LZ4 frame per
 * block.  The lz4 tool reads concatenated frames as one stream.
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>
#include <lz4frame.h>

#include "pcap-int.h"
#include "sf-compress.h"

#define	LZ4_UNCOMPRESSED_FLAG	0x80000000U

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
	size_t r;

	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "out of memory");
		return (NULL);
	}
	r = LZ4F_createCompressionContext(&e->cctx, LZ4F_VERSION);
	if (LZ4F_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "LZ4F_createCompressionContext: %s",
		    LZ4F_getErrorName(r));
		free(e);
		return (NULL);
	}
	/* The smallest LZ4 block size that holds a whole block. */
	if (block_size <= 64 * 1024) {
		e->prefs.frameInfo.blockSizeID = LZ4F_max64KB;
		e->max_block = 64 * 1024;
	} else if (block_size <= 256 * 1024) {
		e->prefs.frameInfo.blockSizeID = LZ4F_max256KB;
		e->max_block = 256 * 1024;
	} else if (block_size <= 1024 * 1024) {
		e->prefs.frameInfo.blockSizeID = LZ4F_max1MB;
		e->max_block = 1024 * 1024;
	} else {
		e->prefs.frameInfo.blockSizeID = LZ4F_max4MB;
		e->max_block = 4 * 1024 * 1024;
	}
	e->prefs.frameInfo.blockMode = LZ4F_blockIndependent;
	raw = e->prefs;
	/* A content checksum, so a reader can tell a damaged block. */
	e->prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
	e->prefs.compressionLevel = level;
	/*
	 * Stored frames are written by hand; their header only depends
	 * on the preferences, so let liblz4 make it once.
	 */
	r = LZ4F_compressBegin(e->cctx, e->raw_hdr, sizeof(e->raw_hdr), &raw);
	if (LZ4F_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "LZ4F_compressBegin: %s",
		    LZ4F_getErrorName(r));
		LZ4F_freeCompressionContext(e->cctx);
		free(e);
		return (NULL);
	}
	e->raw_hdr_len = r;
	return (e);
}

static void
lz4_enc_free(void *state)
{
	struct lz4_enc *e = state;

	LZ4F_freeCompressionContext(e->cctx);
	free(e);
}

static size_t
lz4_stored_len(struct lz4_enc *e, size_t len)
{
	size_t nblk;

	nblk = (len + e->max_block - 1) / e->max_block;
	return (e->raw_hdr_len + 4 * nblk + len + 4);
}

static size_t
lz4_enc_bound(void *state, size_t len)
{
	struct lz4_enc *e = state;
	size_t b, s;

	b = LZ4F_compressFrameBound(len, &e->prefs);
	s = lz4_stored_len(e, len);
	return (b > s ? b : s);
}

static ssize_t
lz4_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, char *errbuf)
{
	struct lz4_enc *e = state;
	size_t pos, r, n;

	if (try_codec) {
		e->prefs.frameInfo.contentSize = len;
		pos = LZ4F_compressBegin(e->cctx, out, outsize, &e->prefs);
		if (LZ4F_isError(pos))
			goto fail;
		r = LZ4F_compressUpdate(e->cctx, out + pos, outsize - pos,
		    in, len, NULL);
		if (LZ4F_isError(r)) {
			pos = r;
			goto fail;
		}
		pos += r;
		r = LZ4F_compressEnd(e->cctx, out + pos, outsize - pos, NULL);
		if (LZ4F_isError(r)) {
			pos = r;
			goto fail;
		}
		pos += r;
		/*
		 * liblz4 already stores a block that does not shrink;
		 * count the frame as stored when it saved nothing.
		 */
		*stored = pos >= len;
		return ((ssize_t)pos);
	}
	memcpy(out, e->raw_hdr, e->raw_hdr_len);
	pos = e->raw_hdr_len;
	while (len != 0) {
		n = len > e->max_block ? e->max_block : len;
		pcapint_sfc_put_le32(out + pos, (uint32_t)n | LZ4_UNCOMPRESSED_FLAG);
		memcpy(out + pos + 4, in, n);
		pos += 4 + n;
		in += n;
		len -= n;
	}
	pcapint_sfc_put_le32(out + pos, 0);	/* end mark */
	*stored = 1;
	return ((ssize_t)(pos + 4));

fail:
	snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", LZ4F_getErrorName(pos));
	return (-1);
}

struct lz4_dec {
	LZ4F_dctx *dctx;
	size_t	hint;		/* input liblz4 wants next */
	int	in_frame;
	int64_t	frame_off;
};

static void *
lz4_dec_create(char *errbuf)
{
	struct lz4_dec *d;
	size_t r;

	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "out of memory");
		return (NULL);
	}
	r = LZ4F_createDecompressionContext(&d->dctx, LZ4F_VERSION);
	if (LZ4F_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "LZ4F_createDecompressionContext: %s",
		    LZ4F_getErrorName(r));
		free(d);
		return (NULL);
	}
	return (d);
}

static void
lz4_dec_free(void *state)
{
	struct lz4_dec *d = state;

	LZ4F_freeDecompressionContext(d->dctx);
	free(d);
}

static ssize_t
lz4_dec_read(void *state, struct pcapint_sfc_input *in, u_char *buf,
    size_t size, int64_t *unit_off, int *unit_done, char *errbuf)
{
	struct lz4_dec *d = state;
	size_t srclen, dstlen, r;
	int fr;

	*unit_done = 0;
	for (;;) {
		if (in->pos == in->len) {
			fr = pcapint_sfc_fill(in, d->in_frame ? d->hint :
			    LZ4F_HEADER_SIZE_MIN);
			if (fr < 0)
				return (SFC_DEC_IOERR);
			if (fr == 0) {
				*unit_off = d->frame_off;
				return (d->in_frame ? SFC_DEC_TRUNCATED : 0);
			}
		}
		if (!d->in_frame) {
			d->frame_off = SFC_INPUT_OFFSET(in);
			d->in_frame = 1;
		}
		*unit_off = d->frame_off;
		srclen = in->len - in->pos;
		dstlen = size;
		r = LZ4F_decompress(d->dctx, buf, &dstlen, in->buf + in->pos,
		    &srclen, NULL);
		in->pos += srclen;
		if (LZ4F_isError(r)) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
			    LZ4F_getErrorName(r));
			return (SFC_DEC_CORRUPT);
		}
		d->hint = r;	/* rest of the block and next block header */
		if (r == 0) {
			/* Stop here, even with no output: a unit ends. */
			d->in_frame = 0;
			*unit_done = 1;
			return ((ssize_t)dstlen);
		}
		if (dstlen != 0)
			return ((ssize_t)dstlen);
	}
}

const struct pcapint_sfc_codec pcapint_sfc_lz4 = {
	"lz4",
	1, 12, 1,
	lz4_enc_create, lz4_enc_free, lz4_enc_bound, lz4_enc_block, NULL, NULL,
	lz4_dec_create, lz4_dec_free, lz4_dec_read
};
