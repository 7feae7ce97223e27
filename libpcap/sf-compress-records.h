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
 * Compressed savefiles: where the records of the decompressed stream
 * end, see sf-compress-records.c.
 */

#ifndef sf_compress_records_h
#define	sf_compress_records_h

#define	SFC_RECORDS_UNKNOWN	0
#define	SFC_RECORDS_PCAP	1
#define	SFC_RECORDS_PCAPNG	2

struct pcapint_sfc_records {
	int	aligned;	/* every unit walked ended at a record's end */
	int	format;		/* SFC_RECORDS_*, learned from the file header */
	int	big_endian;	/* the byte order of the lengths */
};

/* Before the first unit: nothing walked, nothing misaligned yet. */
extern void pcapint_sfc_records_init(struct pcapint_sfc_records *);

/*
 * Walk one unit held whole, of len bytes at offset uoff of the stream;
 * a unit after the first starts at a record, as long as every unit
 * walked so far ended at one.  Returns whether that is still so.
 */
extern int pcapint_sfc_records_walk(struct pcapint_sfc_records *,
    const u_char *, size_t len, int64_t uoff);

/* A unit went by unwalked (too large to hold): nothing is known. */
extern void pcapint_sfc_records_lost(struct pcapint_sfc_records *);

#endif
