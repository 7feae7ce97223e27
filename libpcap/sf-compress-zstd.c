/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * zstd container for compressed savefiles: one zstd frame (RFC 8878)
 * per block; zstd reads concatenated frames as one stream.
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "pcap-int.h"
#include "sf-compress.h"

/*
 * A stored frame is written by hand: magic, a frame header descriptor
 * with no content size, checksum or dictionary, a window descriptor of
 * 128 KiB (exponent 7), then raw blocks of at most 128 KiB, each with a
 * 3-byte header (size << 3 | type 0 << 1 | last).
 */
#define	ZS_RAW_MAX	(128 * 1024)
#define	ZS_FHD_NONE	0x00
#define	ZS_WD_128K	((17 - 10) << 3)

/* What to read of a frame before libzstd gives hints: magic and FHD. */
#define	ZS_FIRST_READ	5

/*
 * Levels below 0 are zstd's fast strategy with a growing step between
 * match searches.  For them we use a 4096-entry hash table (16 KiB,
 * which stays in L1 next to the block being read) and 7-byte minimum
 * matches, rather than libzstd's 8192 entries and 5 bytes for blocks of
 * 256 KiB: packet headers repeat in long runs, and looking only for
 * those is faster and, on HTTP traffic, no worse.  Measured with
 * bench/codecbench.c on 256 KiB blocks of sluice-gen --type http (35 MB)
 * and of tcpdump's test captures (3.5 MB), checksum on, one core:
 *
 *			http MB/s  ratio	test captures MB/s  ratio
 *	level 1		  480	   0.194	  790		0.143
 *	level -5	  670	   0.241	 1150		0.186
 *	level -5, ours	  770	   0.238	 1420		0.202
 */
#define	ZS_FAST_HASHLOG		12
#define	ZS_FAST_MINMATCH	7

struct zs_enc {
	ZSTD_CCtx *cctx;
};

static void *
zs_enc_create(int level, size_t block_size, char *errbuf)
{
	struct zs_enc *e;

	(void)block_size;
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "out of memory");
		return (NULL);
	}
	e->cctx = ZSTD_createCCtx();
	if (e->cctx == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "ZSTD_createCCtx failed");
		free(e);
		return (NULL);
	}
	/* A checksum per frame, so a reader can tell a damaged block. */
	if (ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx,
	    ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx,
	    ZSTD_c_checksumFlag, 1)) ||
	    (level < 0 &&
	    (ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx,
	    ZSTD_c_hashLog, ZS_FAST_HASHLOG)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx,
	    ZSTD_c_minMatch, ZS_FAST_MINMATCH))))) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "can't set zstd compression level %d", level);
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

static size_t
zs_stored_len(size_t len)
{
	size_t nblk;

	nblk = len == 0 ? 1 : (len + ZS_RAW_MAX - 1) / ZS_RAW_MAX;
	return (6 + 3 * nblk + len);
}

static size_t
zs_enc_bound(void *state, size_t len)
{
	size_t b, s;

	(void)state;
	b = ZSTD_compressBound(len);
	s = zs_stored_len(len);
	return (b > s ? b : s);
}

static ssize_t
zs_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, char *errbuf)
{
	struct zs_enc *e = state;
	size_t r, pos, n;
	uint32_t bh;

	if (try_codec) {
		r = ZSTD_compress2(e->cctx, out, outsize, in, len);
		if (ZSTD_isError(r)) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
			    ZSTD_getErrorName(r));
			return (-1);
		}
		/* libzstd stores incompressible blocks by itself. */
		*stored = r >= len;
		return ((ssize_t)r);
	}
	pcapint_sfc_put_le32(out, ZSTD_MAGICNUMBER);
	out[4] = ZS_FHD_NONE;
	out[5] = ZS_WD_128K;
	pos = 6;
	do {
		n = len > ZS_RAW_MAX ? ZS_RAW_MAX : len;
		bh = (uint32_t)n << 3 | (n == len ? 1 : 0);
		out[pos] = (u_char)bh;
		out[pos + 1] = (u_char)(bh >> 8);
		out[pos + 2] = (u_char)(bh >> 16);
		memcpy(out + pos + 3, in, n);
		pos += 3 + n;
		in += n;
		len -= n;
	} while (len != 0);
	*stored = 1;
	return ((ssize_t)pos);
}

struct zs_dec {
	ZSTD_DStream *ds;
	size_t	hint;		/* input libzstd wants next */
	int	in_frame;
	int64_t	frame_off;
};

static void *
zs_dec_create(char *errbuf)
{
	struct zs_dec *d;

	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "out of memory");
		return (NULL);
	}
	d->ds = ZSTD_createDStream();
	if (d->ds == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "ZSTD_createDStream failed");
		free(d);
		return (NULL);
	}
	return (d);
}

static void
zs_dec_free(void *state)
{
	struct zs_dec *d = state;

	ZSTD_freeDStream(d->ds);
	free(d);
}

static ssize_t
zs_dec_read(void *state, struct pcapint_sfc_input *in, u_char *buf,
    size_t size, int64_t *unit_off, int *unit_done, char *errbuf)
{
	struct zs_dec *d = state;
	ZSTD_inBuffer ib;
	ZSTD_outBuffer ob;
	size_t r;
	int fr;

	*unit_done = 0;
	for (;;) {
		if (in->pos == in->len) {
			fr = pcapint_sfc_fill(in, d->in_frame ? d->hint :
			    ZS_FIRST_READ);
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
		ib.src = in->buf;
		ib.size = in->len;
		ib.pos = in->pos;
		ob.dst = buf;
		ob.size = size;
		ob.pos = 0;
		r = ZSTD_decompressStream(d->ds, &ob, &ib);
		in->pos = ib.pos;
		if (ZSTD_isError(r)) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
			    ZSTD_getErrorName(r));
			return (SFC_DEC_CORRUPT);
		}
		d->hint = r;	/* never beyond the end of the frame */
		if (r == 0) {
			/* Stop here, even with no output: a unit ends. */
			d->in_frame = 0;
			*unit_done = 1;
			return ((ssize_t)ob.pos);
		}
		if (ob.pos != 0)
			return ((ssize_t)ob.pos);
	}
}

/*
 * Levels as the zstd tool has them: 1 to 19, and -1 to -100 for its
 * --fast=1 to --fast=100; 0 is libzstd's default level, 3.  The default
 * is -5: see sfc_codecs[] in sf-compress.c for why.
 */
#define	ZS_MIN_LEVEL		(-100)
#define	ZS_DEFAULT_LEVEL	(-5)

const struct pcapint_sfc_codec pcapint_sfc_zstd = {
	"zstd",
	ZS_MIN_LEVEL, 19, ZS_DEFAULT_LEVEL,
	zs_enc_create, zs_enc_free, zs_enc_bound, zs_enc_block, NULL, NULL,
	zs_dec_create, zs_dec_free, zs_dec_read
};
