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
 * Reading the gzip container of compressed savefiles (one gzip member,
 * RFC 1952, per block; sf-compress-zlib-encode.c writes it), and any
 * other .gz file: "gzip capture.pcap" makes one large member, which is
 * read as well.  Each member ends with the CRC-32 and the length of its
 * data, which zlib checks, so that a damaged block is refused instead
 * of delivering damaged records.
 */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <zlib.h>

#include "pcap-int.h"
#include "sf-compress.h"

/*
 * Input per read: gzip does not say where a member ends, so a reader at
 * the end of a pipe may wait for up to this much of the next member.
 */
#define	GZ_READ		4096

/*
 * Reading: zlib parses each member's header and checks its trailer
 * (window bits 16 + 15: gzip only); pcapint_sfc_stream_read() drives
 * it and starts it over at the next member.
 */
struct gz_dec {
	struct pcapint_sfc_stream s;	/* first: the shared read loop's */
	z_stream zs;
};

static int
gz_dec_begin(void *state, char *errbuf)
{
	struct gz_dec *g = state;

	if (inflateReset(&g->zs) != Z_OK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "inflateReset failed");
		return (-1);
	}
	return (0);
}

static int
gz_dec_step(void *state, const u_char *src, size_t *srclen, u_char *dst,
    size_t *dstlen, size_t *hint, char *errbuf)
{
	struct gz_dec *g = state;
	uInt in_len, out_len;
	int ret;

	/* zlib counts in uInt; a larger read takes several steps. */
	in_len = *srclen > UINT_MAX ? UINT_MAX : (uInt)*srclen;
	out_len = *dstlen > UINT_MAX ? UINT_MAX : (uInt)*dstlen;
	g->zs.next_in = (Bytef *)(uintptr_t)src;
	g->zs.avail_in = in_len;
	g->zs.next_out = dst;
	g->zs.avail_out = out_len;
	ret = inflate(&g->zs, Z_NO_FLUSH);
	*srclen = in_len - g->zs.avail_in;
	*dstlen = out_len - g->zs.avail_out;
	*hint = GZ_READ;
	if (ret == Z_STREAM_END)
		return (1);
	if (ret != Z_OK && ret != Z_BUF_ERROR) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
		    g->zs.msg != NULL ? g->zs.msg : "inflate failed");
		return (-1);
	}
	return (0);
}

static void *
gz_dec_create(char *errbuf)
{
	struct gz_dec *g;

	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	if (inflateInit2(&g->zs, 16 + MAX_WBITS) != Z_OK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "inflateInit2 failed");
		free(g);
		return (NULL);
	}
	g->s.step = gz_dec_step;
	g->s.begin = gz_dec_begin;
	g->s.first_read = GZ_READ;
	g->s.zero_padding = 1;	/* as gzip -d accepts it */
	return (g);
}

static void
gz_dec_free(void *state)
{
	struct gz_dec *g = state;

	inflateEnd(&g->zs);
	free(g);
}

const struct pcapint_sfc_decoder pcapint_sfc_gzip_decoder = {
	gz_dec_create, gz_dec_free, pcapint_sfc_stream_read,
	1, 0,
	"\x1f\x8b\x08"		/* ID1, ID2, CM = deflate */
};
