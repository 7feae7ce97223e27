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
 * The lzop container of compressed savefiles, with LZO1X-1, the codec
 * of Shimizu et al.'s compressing capture: what its reader
 * (sf-compress-lzo-decode.c) and writer (sf-compress-lzo-encode.c)
 * share.  These files are only built with --with-lzo: liblzo2 is
 * GPL-2.0-or-later, so a libpcap linked with it must be distributed
 * under the GPL.
 *
 * An lzop file is a header and a sequence of blocks, each with its
 * uncompressed and compressed length and an Adler-32 of the data; a
 * block that does not shrink is stored as it is (equal lengths).  A
 * zero uncompressed length ends the stream; a file cut at a block
 * boundary lacks it, which lzop -d reports but our reader accepts.
 */

#ifndef sf_compress_lzo_h
#define	sf_compress_lzo_h

#include "sf-compress.h"

/*
 * lzop's own block size, and the largest block lzop accepts.  The
 * version we claim to be is lzop 1.04's; 0.94 is the oldest that reads
 * the format we write, and the header fields depend on the version.
 */
#define	LZOP_BLOCK		(256 * 1024)
#define	LZOP_MAX_BLOCK		(64 * 1024 * 1024)
#define	LZOP_VERSION		0x1040
#define	LZOP_NEEDED		0x0940
#define	LZOP_BLOCK_HDR_LEN	12	/* lengths and the data's Adler-32 */
#define	LZOP_LEVEL		5	/* what lzop records for -1 to -6 */
#define	LZOP_MODE		0100644	/* a regular file, rw-r--r-- */

/* Compression methods lzop writes; we read all three, write the first. */
#define	LZOP_M_LZO1X_1		1
#define	LZOP_M_LZO1X_1_15	2
#define	LZOP_M_LZO1X_999	3

/* Header flags: which checksums the blocks carry, and what we refuse. */
#define	F_ADLER32_D	0x00000001U
#define	F_ADLER32_C	0x00000002U
#define	F_H_EXTRA_FIELD	0x00000040U
#define	F_CRC32_D	0x00000100U
#define	F_CRC32_C	0x00000200U
#define	F_MULTIPART	0x00000400U
#define	F_H_FILTER	0x00000800U
#define	F_H_CRC32	0x00001000U
#define	F_OS_UNIX	0x03000000U

#define	LZOP_MAGIC	SFC_MAGIC(SFC_LZO)
#define	LZOP_MAGIC_LEN	(pcapint_sfc_containers[SFC_LZO].magic_len)

/*
 * lzo_init() checks the library against its header, once; 0, or -1
 * with errbuf filled in.
 */
extern int pcapint_sfc_lzo_setup(char *errbuf);

#endif
