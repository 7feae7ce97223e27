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
 * Seek tables at the end of zstd savefiles (see
 * sf-compress-seektable.c).
 */

#ifndef sf_compress_seektable_h
#define	sf_compress_seektable_h

/* A unit (block, frame) starts at coff in the file and uoff uncompressed. */
struct pcapint_sfc_unit_start {
	int64_t	coff;
	int64_t	uoff;
};

/*
 * If the compressed stream that starts at offset base of the
 * seekable file raw ends with a seek table that agrees with its size,
 * return where every unit starts (offsets from base; the first at 0) in
 * a malloc()ed array of *nunits, and the uncompressed length in
 * *end_uoff; 0 on success, -1 if there is no usable table.  raw's
 * position is left where it was.
 */
extern int pcapint_sfc_seektable_read(FILE *raw, int64_t base,
    struct pcapint_sfc_unit_start **, size_t *nunits, int64_t *end_uoff);

#endif
