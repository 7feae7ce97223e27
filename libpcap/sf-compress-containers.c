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
 * Compressed savefiles: the table of containers (name, magic number,
 * decoder), and how a file's container is recognised.
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress-containers.h"

#ifdef HAVE_ZLIB
#define	SFC_GZIP_DECODER	(&pcapint_sfc_gzip_decoder)
#else
#define	SFC_GZIP_DECODER	NULL
#endif
#ifdef HAVE_LIBLZ4
#define	SFC_LZ4_DECODER	(&pcapint_sfc_lz4_decoder)
#else
#define	SFC_LZ4_DECODER	NULL
#endif
#ifdef HAVE_LIBZSTD
#define	SFC_ZSTD_DECODER	(&pcapint_sfc_zstd_decoder)
#else
#define	SFC_ZSTD_DECODER	NULL
#endif
#ifdef SFC_LZOP_CONTAINER
#ifdef HAVE_LIBLZO2
#define	SFC_LZO_DECODER	(&pcapint_sfc_lzo_decoder)
#else
#define	SFC_LZO_DECODER	NULL
#endif
#endif

/*
 * gzip's magic includes the compression method byte (8, deflate), as
 * gzip(1) checks it; the others are 4 bytes.  "none" is a plain
 * savefile, which sf-pcap.c reads, so it has neither magic nor decoder
 * here.
 */
const struct pcapint_sfc_container pcapint_sfc_containers[SFC_NCONTAINERS] = {
	[SFC_STORE] = { "none", { 0 }, 0, NULL },
	[SFC_ZSTD] = { "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, SFC_ZSTD_DECODER },
	[SFC_LZ4] = { "lz4", { 0x04, 0x22, 0x4d, 0x18 }, 4, SFC_LZ4_DECODER },
	[SFC_GZIP] = { "gzip", { 0x1f, 0x8b, 0x08 }, 3, SFC_GZIP_DECODER },
#ifdef SFC_LZOP_CONTAINER
	/* lzop's signature is 9 bytes; its first 4 tell it from the rest. */
	[SFC_LZO] = { "lzo",
	    { 0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a }, 9,
	    SFC_LZO_DECODER },
#endif
};

const struct pcapint_sfc_container *
pcapint_sfc_container_by_magic(const uint8_t *magic)
{
	const struct pcapint_sfc_container *c;
	u_int i, len;

	for (i = 0; i < SFC_NCONTAINERS; i++) {
		c = &pcapint_sfc_containers[i];
		len = c->magic_len < SFC_MAGIC_CHECK ? c->magic_len :
		    SFC_MAGIC_CHECK;
		if (len != 0 && memcmp(magic, c->magic, len) == 0)
			return (c);
	}
	return (NULL);
}

pcap_t *
pcapint_sfc_cannot_read(const struct pcapint_sfc_container *c, char *errbuf,
    int *err)
{
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "the file is %s compressed, which this build of libpcap cannot read",
	    c->name);
	*err = 1;
	return (NULL);
}
