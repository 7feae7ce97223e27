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
 * Reading the lzop container of compressed savefiles
 * (sf-compress-lzo.h describes it), and any other lzop file of LZO1X
 * blocks.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lzo/lzo1x.h>

#include "pcap-int.h"
#include "extract.h"
#include "sf-compress-lzo.h"

static int lzo_ready;

int
pcapint_sfc_lzo_setup(char *errbuf)
{
	if (!lzo_ready) {
		if (lzo_init() != LZO_E_OK) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "lzo_init failed");
			return (-1);
		}
		lzo_ready = 1;
	}
	return (0);
}

/*
 * Reading: the header, then block by block, each checked against its
 * checksums and decompressed whole before any of it is returned.
 * lzop's container is parsed here, so this decoder has its own read
 * loop rather than pcapint_sfc_stream_read().
 */
struct lzo_dec {
	int	have_header;
	int	done;
	uint32_t flags;
	int	method;
	int64_t	block_off;
	u_char	*cbuf;
	u_char	*dbuf;
	size_t	dsize;		/* allocated size of cbuf and dbuf */
	size_t	dlen;		/* bytes in dbuf */
	size_t	dpos;		/* bytes of dbuf already returned */
};

static void *
lzo_dec_create(char *errbuf)
{
	struct lzo_dec *d;

	if (pcapint_sfc_lzo_setup(errbuf) == -1)
		return (NULL);
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
	return (d);
}

static void
lzo_dec_free(void *state)
{
	struct lzo_dec *d = state;

	free(d->cbuf);
	free(d->dbuf);
	free(d);
}

/*
 * Read n bytes into p: 1 if all came, 0 at end of file before the first,
 * SFC_DEC_TRUNCATED or SFC_DEC_IOERR otherwise.
 */
static int
lzo_get(struct pcapint_sfc_input *in, void *p, size_t n, int eof_ok)
{
	ssize_t r;

	r = pcapint_sfc_read(in, p, n);
	if (r < 0)
		return (SFC_DEC_IOERR);
	if ((size_t)r == n)
		return (1);
	if (r == 0 && eof_ok)
		return (0);
	return (SFC_DEC_TRUNCATED);
}

static int
lzo_read_header(struct lzo_dec *d, struct pcapint_sfc_input *in,
    char *errbuf)
{
	u_char h[300];
	size_t n, namelen;
	uint32_t sum, want;
	u_int version;
	int r;

	if ((r = lzo_get(in, h, 9, 0)) != 1)
		return (r);
	if (memcmp(h, LZOP_MAGIC, LZOP_MAGIC_LEN) != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "bad lzop magic");
		return (SFC_DEC_CORRUPT);
	}
	/* version, lib version, [needed], method, [level], flags */
	if ((r = lzo_get(in, h, 4, 0)) != 1)
		return (r);
	version = (u_int)h[0] << 8 | h[1];
	n = 4;
	if (version >= 0x0940) {
		if ((r = lzo_get(in, h + n, 2, 0)) != 1)
			return (r);
		n += 2;
	}
	if ((r = lzo_get(in, h + n, 1, 0)) != 1)
		return (r);
	d->method = h[n];
	n += 1;
	if (version >= 0x0940) {
		if ((r = lzo_get(in, h + n, 1, 0)) != 1)
			return (r);
		n += 1;
	}
	if ((r = lzo_get(in, h + n, 4, 0)) != 1)
		return (r);
	d->flags = EXTRACT_BE_U_4(h + n);
	n += 4;
	if (d->flags & F_H_FILTER) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "lzop filters are not supported");
		return (SFC_DEC_CORRUPT);
	}
	/* mode, mtime low, [mtime high], name length */
	if ((r = lzo_get(in, h + n, version >= 0x0940 ? 13 : 9, 0)) != 1)
		return (r);
	n += version >= 0x0940 ? 13 : 9;
	namelen = h[n - 1];
	if ((r = lzo_get(in, h + n, namelen, 0)) != 1)
		return (r);
	n += namelen;
	want = (d->flags & F_H_CRC32) ? lzo_crc32(0, h, (lzo_uint)n) :
	    lzo_adler32(1, h, (lzo_uint)n);
	if ((r = lzo_get(in, h + n, 4, 0)) != 1)
		return (r);
	sum = EXTRACT_BE_U_4(h + n);
	if (sum != want) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "lzop header checksum error");
		return (SFC_DEC_CORRUPT);
	}
	if (d->flags & F_H_EXTRA_FIELD) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "lzop extra header fields are not supported");
		return (SFC_DEC_CORRUPT);
	}
	if (d->method != LZOP_M_LZO1X_1 && d->method != LZOP_M_LZO1X_1_15 &&
	    d->method != LZOP_M_LZO1X_999) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "unsupported lzop method %d", d->method);
		return (SFC_DEC_CORRUPT);
	}
	d->have_header = 1;
	return (1);
}

static int
lzo_check(uint32_t flags, uint32_t adler_flag, uint32_t crc_flag,
    const u_char *sums, const u_char *p, size_t n)
{
	size_t i;

	i = 0;
	if (flags & adler_flag) {
		if (EXTRACT_BE_U_4(sums) != lzo_adler32(1, p, (lzo_uint)n))
			return (-1);
		i = 4;
	}
	if (flags & crc_flag) {
		if (EXTRACT_BE_U_4(sums + i) != lzo_crc32(0, p, (lzo_uint)n))
			return (-1);
	}
	return (0);
}

static int
lzo_read_block(struct lzo_dec *d, struct pcapint_sfc_input *in,
    char *errbuf)
{
	u_char h[8], dsum[8], csum[8];
	uint32_t dlen, clen;
	size_t nd, nc;
	lzo_uint outlen;
	int r;

	d->block_off = SFC_INPUT_OFFSET(in);
	if ((r = lzo_get(in, h, 4, 1)) != 1)
		return (r);	/* 0: cut at a block boundary, a clean end */
	dlen = EXTRACT_BE_U_4(h);
	if (dlen == 0) {
		d->done = 1;
		return (0);
	}
	if ((r = lzo_get(in, h + 4, 4, 0)) != 1)
		return (r);
	clen = EXTRACT_BE_U_4(h + 4);
	if (dlen > LZOP_MAX_BLOCK || clen > dlen) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "bad lzop block lengths %u/%u", clen, dlen);
		return (SFC_DEC_CORRUPT);
	}
	nd = ((d->flags & F_ADLER32_D) ? 4 : 0) + ((d->flags & F_CRC32_D) ? 4 : 0);
	nc = ((d->flags & F_ADLER32_C) ? 4 : 0) + ((d->flags & F_CRC32_C) ? 4 : 0);
	if (clen == dlen)
		nc = 0;		/* stored: no checksum of compressed data */
	if (nd != 0 && (r = lzo_get(in, dsum, nd, 0)) != 1)
		return (r);
	if (nc != 0 && (r = lzo_get(in, csum, nc, 0)) != 1)
		return (r);
	if (dlen > d->dsize) {
		free(d->cbuf);
		free(d->dbuf);
		d->dsize = 0;
		d->cbuf = malloc(dlen);
		d->dbuf = malloc(dlen);
		if (d->cbuf == NULL || d->dbuf == NULL) {
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    errno, "malloc");
			return (SFC_DEC_FAILED);
		}
		d->dsize = dlen;
	}
	if (clen == dlen) {
		if ((r = lzo_get(in, d->dbuf, dlen, 0)) != 1)
			return (r);
	} else {
		if ((r = lzo_get(in, d->cbuf, clen, 0)) != 1)
			return (r);
		if (nc != 0 && lzo_check(d->flags, F_ADLER32_C, F_CRC32_C,
		    csum, d->cbuf, clen) != 0) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "checksum error in compressed data");
			return (SFC_DEC_CORRUPT);
		}
		outlen = dlen;
		if (lzo1x_decompress_safe(d->cbuf, clen, d->dbuf, &outlen,
		    NULL) != LZO_E_OK || outlen != dlen) {
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "LZO1X decompression failed");
			return (SFC_DEC_CORRUPT);
		}
	}
	if (nd != 0 && lzo_check(d->flags, F_ADLER32_D, F_CRC32_D, dsum,
	    d->dbuf, dlen) != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "checksum error in decompressed data");
		return (SFC_DEC_CORRUPT);
	}
	d->dlen = dlen;
	d->dpos = 0;
	return (1);
}

static ssize_t
lzo_dec_read(void *state, struct pcapint_sfc_input *in, u_char *buf,
    size_t size, int64_t *unit_off, int *unit_done, char *errbuf)
{
	struct lzo_dec *d = state;
	size_t n;
	int r;

	*unit_off = d->block_off;
	*unit_done = 0;
	if (!d->have_header) {
		r = lzo_read_header(d, in, errbuf);
		if (r != 1)
			return (r == 0 ? SFC_DEC_TRUNCATED : r);
	}
	while (d->dpos == d->dlen) {
		if (d->done)
			return (0);
		r = lzo_read_block(d, in, errbuf);
		*unit_off = d->block_off;
		if (r != 1)
			return (r);
	}
	n = d->dlen - d->dpos;
	if (n > size)
		n = size;
	memcpy(buf, d->dbuf + d->dpos, n);
	d->dpos += n;
	*unit_done = d->dpos == d->dlen;
	return ((ssize_t)n);
}

const struct pcapint_sfc_decoder pcapint_sfc_lzo_decoder = {
	lzo_dec_create, lzo_dec_free, lzo_dec_read,
	0, 0, NULL
};
