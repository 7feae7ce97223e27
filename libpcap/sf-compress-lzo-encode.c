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
 * Writing the lzop container of compressed savefiles, with LZO1X-1
 * (sf-compress-lzo.h describes the format).  A block of ours becomes
 * one or more lzop blocks of at most 256 KiB, lzop's own block size; a
 * block that does not shrink is stored as it is.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lzo/lzo1x.h>

#include "pcap-int.h"
#include "sf-compress-encoder.h"
#include "sf-compress-lzo.h"

struct lzo_enc {
	u_char	wrkmem[LZO1X_1_MEM_COMPRESS];
};

static void *
lzo_enc_create(int level _U_, size_t block_size _U_, char *errbuf)
{
	struct lzo_enc *e;

	if (pcapint_sfc_lzo_setup(errbuf) == -1)
		return (NULL);
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
	return (e);
}

static void
lzo_enc_free(void *state)
{
	free(state);
}

/* LZO1X's worst case for n bytes, from the LZO documentation. */
#define	LZO1X_WORST(n)	((n) + (n) / 16 + 64 + 3)

static size_t
lzo_enc_bound(void *state _U_, size_t len)
{
	size_t nblk;

	nblk = (len + LZOP_BLOCK - 1) / LZOP_BLOCK;
	/*
	 * A header per lzop block; a block that does not shrink is
	 * stored, so only the codec's overshoot while compressing the
	 * last lzop block matters.
	 */
	return (len + LZOP_BLOCK_HDR_LEN * nblk + LZO1X_WORST(LZOP_BLOCK) -
	    LZOP_BLOCK);
}

/*
 * The file header: magic, versions, method and level, flags, mode,
 * mtime (0, so that the same records make the same file), an empty
 * file name and the header's Adler-32.
 */
static size_t
lzo_enc_header(void *state _U_, u_char *out)
{
	u_char *h;
	lzo_uint32_t sum;

	memcpy(out, LZOP_MAGIC, LZOP_MAGIC_LEN);
	h = out + LZOP_MAGIC_LEN;
	h[0] = LZOP_VERSION >> 8;
	h[1] = LZOP_VERSION & 0xff;
	h[2] = (u_char)(lzo_version() >> 8);
	h[3] = (u_char)lzo_version();
	h[4] = LZOP_NEEDED >> 8;
	h[5] = LZOP_NEEDED & 0xff;
	h[6] = LZOP_M_LZO1X_1;
	h[7] = LZOP_LEVEL;
	pcapint_sfc_put_be32(h + 8, F_OS_UNIX | F_ADLER32_D);
	pcapint_sfc_put_be32(h + 12, LZOP_MODE);
	pcapint_sfc_put_be32(h + 16, 0);	/* mtime, low */
	pcapint_sfc_put_be32(h + 20, 0);	/* mtime, high */
	h[24] = 0;				/* no file name */
	sum = lzo_adler32(1, h, 25);
	pcapint_sfc_put_be32(h + 25, sum);
	return (LZOP_MAGIC_LEN + 29);
}

/* The end of the stream: a block with an uncompressed length of 0. */
static size_t
lzo_enc_trailer(void *state _U_, u_char *out)
{
	pcapint_sfc_put_be32(out, 0);
	return (4);
}

/*
 * A block of ours is one or more lzop blocks: uncompressed length,
 * compressed length (equal when stored) and the Adler-32 of the
 * uncompressed data, then the data.
 */
static ssize_t
lzo_enc_block(void *state, const u_char *in, size_t len, u_char *out,
    size_t outsize _U_, int try_codec, int *stored, const u_char **res,
    char *errbuf)
{
	struct lzo_enc *e = state;
	size_t pos, n;
	lzo_uint clen;
	int all_stored;

	*res = out;
	pos = 0;
	all_stored = 1;
	while (len != 0) {
		n = len > LZOP_BLOCK ? LZOP_BLOCK : len;
		pcapint_sfc_put_be32(out + pos, (uint32_t)n);
		pcapint_sfc_put_be32(out + pos + 8, lzo_adler32(1, in, n));
		clen = n;
		if (try_codec) {
			if (lzo1x_1_compress(in, n, out + pos + LZOP_BLOCK_HDR_LEN, &clen,
			    e->wrkmem) != LZO_E_OK) {
				snprintf(errbuf, PCAP_ERRBUF_SIZE,
				    "lzo1x_1_compress failed");
				return (-1);
			}
		}
		/* lzop stores a block that does not shrink. */
		if (clen >= n) {
			clen = n;
			memcpy(out + pos + LZOP_BLOCK_HDR_LEN, in, n);
		} else
			all_stored = 0;
		pcapint_sfc_put_be32(out + pos + 4, (uint32_t)clen);
		pos += LZOP_BLOCK_HDR_LEN + clen;
		in += n;
		len -= n;
	}
	*stored = all_stored;
	return ((ssize_t)pos);
}

/* LZO1X-1 has one level. */
const struct pcapint_sfc_encoder pcapint_sfc_lzo_encoder = {
	SFC_LZO, 1,
	1, 1, 1,
	lzo_enc_create, lzo_enc_free, lzo_enc_bound, lzo_enc_block,
	lzo_enc_header, lzo_enc_trailer, NULL,
#ifdef SFC_ADAPTIVE_LEVEL
	NULL		/* one level: no ladder */
#endif
};
