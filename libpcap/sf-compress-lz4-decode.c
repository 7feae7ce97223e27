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
 * Reading the LZ4 container of compressed savefiles (one LZ4 frame per
 * block; sf-compress-lz4-encode.c writes it), and any other file of
 * lz4(1)'s frame format, one frame or several concatenated.  Frames
 * that carry a content checksum (XXH32) are checked, so that a damaged
 * block is refused instead of delivering damaged records.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <lz4frame.h>

#include "pcap-int.h"
#include "sf-compress.h"

/*
 * Reading: liblz4's frame decoder, which checks the content checksum at
 * the end of each frame, driven by pcapint_sfc_stream_read().
 */
struct lz4_dec {
	struct pcapint_sfc_stream s;	/* first: the shared read loop's */
	LZ4F_dctx *dctx;
};

static int
lz4_dec_step(void *state, const u_char *src, size_t *srclen, u_char *dst,
    size_t *dstlen, size_t *hint, char *errbuf)
{
	struct lz4_dec *d = state;
	size_t r;

	r = LZ4F_decompress(d->dctx, dst, dstlen, src, srclen, NULL);
	if (LZ4F_isError(r)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", LZ4F_getErrorName(r));
		return (-1);
	}
	/* The rest of the block and the next block's header; 0 at the end. */
	*hint = r;
	return (r == 0);
}

static void *
lz4_dec_create(char *errbuf)
{
	struct lz4_dec *d;
	size_t r;

	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
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
	d->s.step = lz4_dec_step;
	d->s.first_read = LZ4F_HEADER_SIZE_MIN;
	return (d);
}

static void
lz4_dec_free(void *state)
{
	struct lz4_dec *d = state;

	LZ4F_freeDecompressionContext(d->dctx);
	free(d);
}

const struct pcapint_sfc_decoder pcapint_sfc_lz4_decoder = {
	lz4_dec_create, lz4_dec_free, pcapint_sfc_stream_read,
	1, 0,
	"\x04\x22\x4d\x18"	/* 0x184D2204, little-endian */
};
