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
 * Reading the zstd container of compressed savefiles (one zstd frame,
 * RFC 8878, per block; sf-compress-zstd-encode.c writes it), and any
 * other .zst file, whose frames, one or many, libzstd reads as one
 * stream, as zstd(1) does.  Frames that carry a content checksum
 * (XXH64) are checked, so that a damaged block is refused instead of
 * delivering damaged records.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
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
