/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Seek tables at the end of zstd and LZ4 savefiles (see
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
