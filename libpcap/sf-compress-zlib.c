/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * gzip container for compressed savefiles (zlib): one gzip member
 * (RFC 1952) per block.  gzip readers, zcat included, read a
 * concatenation of members as one stream.
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pcap-int.h"
#include "sf-compress.h"

#define	GZ_HDR_LEN	10
#define	GZ_TRL_LEN	8
#define	GZ_STORED_MAX	65535	/* longest stored deflate block */

/*
 * Input per read: gzip does not say where a member ends, so a reader at
 * the end of a pipe may wait for up to this much of the next member.
 */
#define	GZ_READ		4096

struct gz_enc {
	z_stream zs;
	int	level;
};

static void *
gz_enc_create(int level, size_t block_size, char *errbuf)
{
	struct gz_enc *g;
	int ret;

	(void)block_size;
	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "out of memory");
		return (NULL);
	}
	g->level = level;
	/* Raw deflate: we write the gzip header and trailer ourselves. */
	ret = deflateInit2(&g->zs, level, Z_DEFLATED, -MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY);
	if (ret != Z_OK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "deflateInit2 failed: %s",
		    g->zs.msg != NULL ? g->zs.msg : "unknown error");
		free(g);
		return (NULL);
	}
	return (g);
}

static void
gz_enc_free(void *state)
{
	struct gz_enc *g = state;

	deflateEnd(&g->zs);
	free(g);
}

static size_t
gz_stored_len(size_t len)
{
	size_t nblk;

	nblk = len == 0 ? 1 : (len + GZ_STORED_MAX - 1) / GZ_STORED_MAX;
	return (len + 5 * nblk);
}

static size_t
gz_enc_bound(void *state, size_t len)
{
	struct gz_enc *g = state;
	size_t b, s;

	b = deflateBound(&g->zs, (uLong)len);
	s = gz_stored_len(len);
	return (GZ_HDR_LEN + (b > s ? b : s) + GZ_TRL_LEN);
}

/*
 * Stored deflate blocks: a 3-bit header (BFINAL, BTYPE 00) padded to a
 * byte, LEN and its complement, then the bytes as they are.
 */
static size_t
gz_store(const u_char *in, size_t len, u_char *out)
{
	u_char *o = out;
	size_t n;

	do {
		n = len > GZ_STORED_MAX ? GZ_STORED_MAX : len;
		*o++ = n == len ? 1 : 0;
		*o++ = (u_char)n;
		*o++ = (u_char)(n >> 8);
		*o++ = (u_char)~n;
		*o++ = (u_char)(~n >> 8);
		memcpy(o, in, n);
		o += n;
		in += n;
		len -= n;
	} while (len != 0);
	return ((size_t)(o - out));
}

static ssize_t
gz_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize, int try_codec, int *stored, char *errbuf)
{
	struct gz_enc *g = state;
	size_t body, slen;
	uLong crc;
	int ret;

	/* Member header: no name, no mtime (reproducible), OS Unix. */
	out[0] = 0x1f;
	out[1] = 0x8b;
	out[2] = 8;		/* deflate */
	out[3] = 0;		/* flags */
	memset(out + 4, 0, 4);	/* mtime */
	out[8] = g->level == 9 ? 2 : (g->level == 1 ? 4 : 0);
	out[9] = 3;		/* Unix */
	slen = gz_stored_len(len);
	body = 0;
	*stored = 1;
	if (try_codec) {
		if (deflateReset(&g->zs) != Z_OK) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "deflateReset failed");
			return (-1);
		}
		g->zs.next_in = (Bytef *)(uintptr_t)in;
		g->zs.avail_in = (uInt)len;
		g->zs.next_out = out + GZ_HDR_LEN;
		g->zs.avail_out = (uInt)(outsize - GZ_HDR_LEN - GZ_TRL_LEN);
		ret = deflate(&g->zs, Z_FINISH);
		if (ret != Z_STREAM_END) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "deflate failed: %s",
			    g->zs.msg != NULL ? g->zs.msg : "output too large");
			return (-1);
		}
		body = g->zs.total_out;
		if (body < slen)
			*stored = 0;
	}
	if (*stored)
		body = gz_store(in, len, out + GZ_HDR_LEN);
	crc = crc32(0L, Z_NULL, 0);
	crc = crc32(crc, in, (uInt)len);
	pcapint_sfc_put_le32(out + GZ_HDR_LEN + body, (uint32_t)crc);
	pcapint_sfc_put_le32(out + GZ_HDR_LEN + body + 4, (uint32_t)len);
	return ((ssize_t)(GZ_HDR_LEN + body + GZ_TRL_LEN));
}

/*
 * Reading: zlib parses the gzip header and checks the trailer; at the
 * end of a member we start over if more input follows.
 */
struct gz_dec {
	z_stream zs;
	int	in_member;
	int64_t	member_off;
};

static void *
gz_dec_create(char *errbuf)
{
	struct gz_dec *g;

	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "out of memory");
		return (NULL);
	}
	if (inflateInit2(&g->zs, 16 + MAX_WBITS) != Z_OK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "inflateInit2 failed");
		free(g);
		return (NULL);
	}
	return (g);
}

static void
gz_dec_free(void *state)
{
	struct gz_dec *g = state;

	inflateEnd(&g->zs);
	free(g);
}

static ssize_t
gz_dec_read(void *state, struct pcapint_sfc_input *in, u_char *buf,
    size_t size, int64_t *unit_off, int *unit_done, char *errbuf)
{
	struct gz_dec *g = state;
	size_t produced;
	int r, ret;

	*unit_done = 0;
	for (;;) {
		if (in->pos == in->len) {
			r = pcapint_sfc_fill(in, GZ_READ);
			if (r < 0)
				return (SFC_DEC_IOERR);
			if (r == 0) {
				*unit_off = g->member_off;
				return (g->in_member ? SFC_DEC_TRUNCATED : 0);
			}
		}
		if (!g->in_member) {
			g->member_off = SFC_INPUT_OFFSET(in);
			if (inflateReset(&g->zs) != Z_OK) {
				snprintf(errbuf, PCAP_ERRBUF_SIZE,
				    "inflateReset failed");
				return (SFC_DEC_CORRUPT);
			}
			g->in_member = 1;
		}
		*unit_off = g->member_off;
		g->zs.next_in = in->buf + in->pos;
		g->zs.avail_in = (uInt)(in->len - in->pos);
		g->zs.next_out = buf;
		g->zs.avail_out = (uInt)size;
		ret = inflate(&g->zs, Z_NO_FLUSH);
		in->pos = in->len - g->zs.avail_in;
		produced = size - g->zs.avail_out;
		if (ret == Z_STREAM_END) {
			/* Stop here, even with no output: a unit ends. */
			g->in_member = 0;
			*unit_done = 1;
			return ((ssize_t)produced);
		}
		else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
			    g->zs.msg != NULL ? g->zs.msg : "inflate failed");
			return (SFC_DEC_CORRUPT);
		}
		if (produced != 0)
			return ((ssize_t)produced);
	}
}

const struct pcapint_sfc_codec pcapint_sfc_gzip = {
	"gzip",
	1, 9, 1,
	gz_enc_create, gz_enc_free, gz_enc_bound, gz_enc_block, NULL, NULL,
	gz_dec_create, gz_dec_free, gz_dec_read
};
