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
 * decoder) and the check_headers[] entry of savefile.c, both defined in
 * sf-compress-read.c.  This is all that savefile.c, and the part of
 * sf-compress-read.c built where there is no fopencookie(), need; they
 * are built on every platform, so it uses nothing beyond C99 and
 * pcap.h (no ssize_t, which MSVC lacks).  The decoders' interface,
 * which this table points to, is sf-compress.h.
 */

#ifndef sf_compress_containers_h
#define	sf_compress_containers_h

#include <stdio.h>
#include <stdint.h>

#include "pcap/pcap.h"

struct pcapint_sfc_decoder;

/*
 * The containers, in order of preference where one must be chosen.  A
 * row whose decoder was not built has dec NULL, so that its files are
 * recognised and refused with a clear message rather than as "unknown
 * file format".  The magic is the container's own signature, all of
 * it; files are recognised by its first SFC_MAGIC_CHECK bytes at most.
 */
enum pcapint_sfc_container_id {
	SFC_STORE,
	SFC_ZSTD,
	SFC_LZ4,
	SFC_GZIP,
#ifdef SFC_LZOP_CONTAINER
	SFC_LZO,
#endif
	SFC_NCONTAINERS
};

#ifdef SFC_LZOP_CONTAINER
#define	SFC_MAGIC_MAX	9	/* lzop's signature */
#else
#define	SFC_MAGIC_MAX	4
#endif
#define	SFC_MAGIC_CHECK	4	/* what savefile.c has read when it asks */

struct pcapint_sfc_container {
	const char	*name;
	u_char		magic[SFC_MAGIC_MAX];
	u_int		magic_len;	/* 0 for "store": plain pcap */
	const struct pcapint_sfc_decoder *dec;	/* NULL: not built */
};

extern const struct pcapint_sfc_container
    pcapint_sfc_containers[SFC_NCONTAINERS];

#define	SFC_MAGIC(id)	(pcapint_sfc_containers[id].magic)

#ifdef HAVE_ZLIB
extern const struct pcapint_sfc_decoder pcapint_sfc_gzip_decoder;
#endif
#ifdef HAVE_LIBLZ4
extern const struct pcapint_sfc_decoder pcapint_sfc_lz4_decoder;
#endif
#ifdef HAVE_LIBZSTD
extern const struct pcapint_sfc_decoder pcapint_sfc_zstd_decoder;
#endif
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_decoder pcapint_sfc_lzo_decoder;
#endif

/*
 * The check_headers[] entry of savefile.c: recognises a compressed
 * container, and returns a pcap_t whose rfile is the decompressing
 * stream.
 */
extern pcap_t *pcapint_compressed_check_header(const uint8_t *, FILE *,
    u_int, char *, int *);

#endif
