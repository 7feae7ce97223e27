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
 * Compressed savefiles: the table of the containers' encoders, the
 * default one, and what the encoders share.
 */

#include <config.h>

#include "pcap-int.h"
#include "sf-compress-encoder.h"

#ifdef HAVE_ZLIB
#define	SFC_GZIP_ENCODER	(&pcapint_sfc_gzip_encoder)
#else
#define	SFC_GZIP_ENCODER	NULL
#endif
#ifdef HAVE_LIBLZ4
#define	SFC_LZ4_ENCODER	(&pcapint_sfc_lz4_encoder)
#else
#define	SFC_LZ4_ENCODER	NULL
#endif
#ifdef HAVE_LIBZSTD
#define	SFC_ZSTD_ENCODER	(&pcapint_sfc_zstd_encoder)
#else
#define	SFC_ZSTD_ENCODER	NULL
#endif
#ifdef SFC_LZOP_CONTAINER
#ifdef HAVE_LIBLZO2
#define	SFC_LZO_ENCODER	(&pcapint_sfc_lzo_encoder)
#else
#define	SFC_LZO_ENCODER	NULL
#endif
#endif

const struct pcapint_sfc_encoder *const
    pcapint_sfc_encoders[SFC_NCONTAINERS] = {
	[SFC_STORE] = &pcapint_sfc_store,
	[SFC_ZSTD] = SFC_ZSTD_ENCODER,
	[SFC_LZ4] = SFC_LZ4_ENCODER,
	[SFC_GZIP] = SFC_GZIP_ENCODER,
#ifdef SFC_LZOP_CONTAINER
	[SFC_LZO] = SFC_LZO_ENCODER,
#endif
};

/*
 * The containers' order is the order of preference: zstd comes first,
 * so it is the default when it is built, as at its fast levels it is
 * as quick as the others and writes fewer bytes.
 */
const struct pcapint_sfc_encoder *
pcapint_sfc_default_encoder(void)
{
	u_int i;

	for (i = 0; i < SFC_NCONTAINERS; i++) {
		if (pcapint_sfc_encoders[i] != NULL &&
		    pcapint_sfc_encoders[i]->compresses)
			return (pcapint_sfc_encoders[i]);
	}
	return (&pcapint_sfc_store);
}

void
pcapint_sfc_put_be32(u_char *p, uint32_t v)
{
	p[0] = (u_char)(v >> 24);
	p[1] = (u_char)(v >> 16);
	p[2] = (u_char)(v >> 8);
	p[3] = (u_char)v;
}

void
pcapint_sfc_put_le32(u_char *p, uint32_t v)
{
	p[0] = (u_char)v;
	p[1] = (u_char)(v >> 8);
	p[2] = (u_char)(v >> 16);
	p[3] = (u_char)(v >> 24);
}

size_t
pcapint_sfc_no_header(void *state _U_, u_char *out _U_)
{
	return (0);
}
