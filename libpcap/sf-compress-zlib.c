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
 * The gzip container of compressed savefiles (zlib): one gzip member
 * (RFC 1952) per block, its data's CRC-32 and length checked by zlib.
 * Any other .gz file is read too, such as the single member of "gzip x.pcap".
 */

#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "sf-compress.h"

/* gzip has no member lengths: a reader of a pipe may wait for this much. */
#define	GZ_READ		4096

struct gz_dec {
	struct pcapint_sfc_stream s;	/* first: the shared read loop's */
	z_stream zs;
};

static int
gz_dec_step(void *state, const u_char *src, size_t *srclen, u_char *dst,
    size_t *dstlen, size_t *hint, char *errbuf)
{
	struct gz_dec *g = state;
	int ret;

	/* zlib counts in uInt; a larger read takes several steps. */
	g->zs.next_in = (Bytef *)(uintptr_t)src;
	g->zs.avail_in = *srclen > UINT_MAX ? UINT_MAX : (uInt)*srclen;
	g->zs.next_out = dst;
	g->zs.avail_out = *dstlen > UINT_MAX ? UINT_MAX : (uInt)*dstlen;
	ret = inflate(&g->zs, Z_NO_FLUSH);
	*srclen = (size_t)(g->zs.next_in - src);
	*dstlen = (size_t)(g->zs.next_out - dst);
	*hint = GZ_READ;
	if (ret == Z_OK || ret == Z_BUF_ERROR)
		return (0);
	/* A member ended: the next one needs the inflater reset. */
	if (ret == Z_STREAM_END && inflateReset(&g->zs) == Z_OK)
		return (1);
	snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", ret == Z_STREAM_END ?
	    "inflateReset failed" : g->zs.msg != NULL ? g->zs.msg :
	    "inflate failed");
	return (-1);
}

static void *
gz_dec_create(char *errbuf)
{
	struct gz_dec *g;

	if ((g = pcapint_sfc_calloc(sizeof(*g), errbuf)) == NULL)
		return (NULL);
	if (inflateInit2(&g->zs, 16 + MAX_WBITS) != Z_OK) {	/* gzip only */
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "inflateInit2 failed");
		free(g);
		return (NULL);
	}
	g->s.step = gz_dec_step;
	g->s.first_read = GZ_READ;
	g->s.zero_padding = 1;	/* as gzip -d accepts it */
	return (g);
}

static void
gz_dec_free(void *state)
{
	inflateEnd(&((struct gz_dec *)state)->zs);
	free(state);
}

const struct pcapint_sfc_decoder pcapint_sfc_gzip_decoder = {
	gz_dec_create, gz_dec_free, pcapint_sfc_stream_read, 1, 0
};

#define	GZ_HDR_LEN	10	/* magic, method, flags, mtime, XFL, OS */
#define	GZ_TRL_LEN	8	/* CRC-32, length modulo 2^32 */
/* Stored deflate blocks (RFC 1951 3.2.4): a header byte, LEN, NLEN. */
#define	GZ_STORED_MAX	65535
#define	GZ_STORED_HDR	5

struct gz_enc {
	z_stream zs;
	int	level;
};

static void *
gz_enc_create(int level, size_t block_size _U_, char *errbuf)
{
	struct gz_enc *g;

	if ((g = pcapint_sfc_calloc(sizeof(*g), errbuf)) == NULL)
		return (NULL);
	g->level = level;
	/* Raw deflate: we write the gzip header and trailer ourselves. */
	if (deflateInit2(&g->zs, level, Z_DEFLATED, -MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "deflateInit2 failed: %s",
		    g->zs.msg != NULL ? g->zs.msg : "unknown error");
		free(g);
		return (NULL);
	}
	return (g);
}

/* After deflateReset(), deflateParams() has nothing left at the old level. */
static int
gz_enc_level(void *state, int level, char *errbuf)
{
	struct gz_enc *g = state;

	if (level != g->level && (deflateReset(&g->zs) != Z_OK ||
	    deflateParams(&g->zs, level, Z_DEFAULT_STRATEGY) != Z_OK)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "can't set deflate compression level %d", level);
		return (-1);
	}
	g->level = level;
	return (0);
}

static void
gz_enc_free(void *state)
{
	deflateEnd(&((struct gz_enc *)state)->zs);
	free(state);
}

/* Length of len bytes as stored deflate blocks. */
static size_t
gz_stored_len(size_t len)
{
	return (len + GZ_STORED_HDR * (len == 0 ? 1 :
	    (len + GZ_STORED_MAX - 1) / GZ_STORED_MAX));
}

static size_t
gz_enc_bound(void *state, size_t len)
{
	struct gz_enc *g = state;

	return (GZ_HDR_LEN + SFC_MAX_SIZE(deflateBound(&g->zs, (uLong)len),
	    gz_stored_len(len)) + GZ_TRL_LEN);
}

static size_t
gz_store(const u_char *in, size_t len, u_char *out)
{
	u_char *o = out;
	size_t n;

	for (;; in += n, len -= n) {
		n = len > GZ_STORED_MAX ? GZ_STORED_MAX : len;
		o[0] = n == len;	/* BFINAL on the last */
		pcapint_sfc_put_le32(o + 1, (uint32_t)(n | ~n << 16));
		memcpy(o + GZ_STORED_HDR, in, n);
		o += GZ_STORED_HDR + n;
		if (n == len)
			return ((size_t)(o - out));
	}
}

static ptrdiff_t
gz_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, const u_char **res,
    char *errbuf)
{
	struct gz_enc *g = state;
	size_t body = 0;

	/* No file name or mtime: the same records make the same file. */
	*res = out;
	memcpy(out, SFC_MAGIC(SFC_GZIP), 3);	/* with method 8, deflate */
	memset(out + 3, 0, 5);			/* flags, mtime */
	out[8] = g->level == 9 ? 2 : g->level == 1 ? 4 : 0;	/* gzip's XFL */
	out[9] = 3;				/* OS: Unix */
	*stored = 1;
	if (try_codec) {
		if (deflateReset(&g->zs) != Z_OK) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "deflateReset failed");
			return (-1);
		}
		g->zs.next_in = (Bytef *)(uintptr_t)in;
		g->zs.avail_in = (uInt)len;
		g->zs.next_out = out + GZ_HDR_LEN;
		g->zs.avail_out = (uInt)(outsize - GZ_HDR_LEN - GZ_TRL_LEN);
		if (deflate(&g->zs, Z_FINISH) != Z_STREAM_END) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "deflate failed: %s",
			    g->zs.msg != NULL ? g->zs.msg : "output too large");
			return (-1);
		}
		body = g->zs.total_out;
		*stored = body >= gz_stored_len(len);	/* then store it */
	}
	if (*stored)
		body = gz_store(in, len, out + GZ_HDR_LEN);
	pcapint_sfc_put_le32(out + GZ_HDR_LEN + body,
	    (uint32_t)crc32(crc32(0L, Z_NULL, 0), in, (uInt)len));
	pcapint_sfc_put_le32(out + GZ_HDR_LEN + body + 4, (uint32_t)len);
	return ((ptrdiff_t)(GZ_HDR_LEN + body + GZ_TRL_LEN));
}

/*
 * An empty member whose header's extra field (RFC 1952 2.3.1.1, one
 * subfield "SP") takes len bytes: gzip -d and inflate() skip it.
 */
static size_t
gz_enc_pad(u_char *out, size_t len)
{
	static const u_char head[GZ_HDR_LEN] = { 0x1f, 0x8b, 8, 4, 0, 0, 0, 0,
	    0, 255 };
	size_t xlen = len - GZ_HDR_LEN - 2 - 2 - GZ_TRL_LEN;

	if (len < GZ_HDR_LEN + 2 + 4 + 2 + GZ_TRL_LEN || xlen > 0xffff)
		return (0);
	memset(out, 0, len);
	memcpy(out, head, GZ_HDR_LEN);
	pcapint_sfc_put_le32(out + GZ_HDR_LEN, (uint32_t)xlen | 'S' << 16 |
	    'P' << 24);
	pcapint_sfc_put_le32(out + GZ_HDR_LEN + 4, (uint32_t)(xlen - 4));
	out[len - GZ_TRL_LEN - 2] = 3;	/* an empty final fixed block */
	return (len);
}

/* Levels as gzip(1) has them; 1, the fastest, is the default. */
const struct pcapint_sfc_encoder pcapint_sfc_gzip_encoder = {
	SFC_GZIP, 1, 1, 9, 1,
	gz_enc_create, gz_enc_free, gz_enc_bound, gz_enc_block, gz_enc_level,
	&pcapint_sfc_gzip_ladder, gz_enc_pad
};
