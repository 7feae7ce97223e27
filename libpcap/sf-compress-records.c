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
 * end.  Reading on past a damaged unit (sf-compress-resync.c) is right
 * only where units end at records, as the blocks of a program that
 * compresses a capture block by block do; a file compressed in
 * arbitrary parts (split(1), a tool that cuts its frames by size) has
 * records that straddle units, and the unit after a skipped one would
 * start inside a record.  So each unit held whole is walked, record
 * header by record header, and the walk says whether it ended exactly
 * at the end of a record.  Only the record lengths are read, of records
 * already in memory.
 */

#include <config.h>

#include <stddef.h>

#include "pcap-int.h"
#include "sf-compress-records.h"

#define	SFC_PCAP_FILE_HDR_LEN	24	/* struct pcap_file_header */
#define	SFC_PCAP_REC_HDR_LEN	16	/* struct pcap_sf_pkthdr */
#define	SFC_PCAPNG_SHB		0x0A0D0D0AU	/* the same in both orders */
#define	SFC_PCAPNG_BOM		0x1A2B3C4DU

static uint32_t
sfc_u32(const u_char *p, int big_endian)
{
	if (big_endian)
		return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
	return ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | (uint32_t)p[0]);
}

void
pcapint_sfc_records_init(struct pcapint_sfc_records *w)
{
	w->aligned = 1;
	w->format = SFC_RECORDS_UNKNOWN;
	w->big_endian = 0;
}

/*
 * The file header at the start of the stream: a pcap header, in either
 * byte order, with microsecond or nanosecond time stamps, or a pcapng
 * section header block, which the walk reads as one of its blocks.  Any
 * other format is not walked.  Returns the header's length, or 0.
 */
static size_t
sfc_records_file_header(struct pcapint_sfc_records *w, const u_char *buf,
    size_t len)
{
	uint32_t magic;

	if (len < 4)
		return (0);
	magic = sfc_u32(buf, 1);
	switch (magic) {

	case 0xA1B2C3D4U:	/* microseconds, big-endian */
	case 0xA1B23C4DU:	/* nanoseconds */
		w->format = SFC_RECORDS_PCAP;
		w->big_endian = 1;
		return (SFC_PCAP_FILE_HDR_LEN);

	case 0xD4C3B2A1U:	/* the same, little-endian */
	case 0x4D3CB2A1U:
		w->format = SFC_RECORDS_PCAP;
		w->big_endian = 0;
		return (SFC_PCAP_FILE_HDR_LEN);

	case SFC_PCAPNG_SHB:
		w->format = SFC_RECORDS_PCAPNG;
		return (0);	/* the walk reads the block */
	}
	w->aligned = 0;
	return (0);
}

int
pcapint_sfc_records_walk(struct pcapint_sfc_records *w, const u_char *buf,
    size_t len, int64_t uoff)
{
	uint64_t pos = 0, reclen;

	if (!w->aligned)
		return (0);
	if (uoff == 0)
		pos = sfc_records_file_header(w, buf, len);
	if (w->format == SFC_RECORDS_UNKNOWN) {
		w->aligned = 0;
		return (0);
	}
	while (w->aligned && pos < len) {
		if (w->format == SFC_RECORDS_PCAP) {
			if (len - pos < SFC_PCAP_REC_HDR_LEN) {
				w->aligned = 0;
				break;
			}
			/* caplen, after the two time stamp words */
			reclen = SFC_PCAP_REC_HDR_LEN +
			    (uint64_t)sfc_u32(buf + pos + 8, w->big_endian);
		} else {
			/* block type, block total length, and a section's
			 * byte-order magic */
			if (len - pos < 12) {
				w->aligned = 0;
				break;
			}
			if (sfc_u32(buf + pos, 1) == SFC_PCAPNG_SHB) {
				if (sfc_u32(buf + pos + 8, 1) == SFC_PCAPNG_BOM)
					w->big_endian = 1;
				else if (sfc_u32(buf + pos + 8, 0) ==
				    SFC_PCAPNG_BOM)
					w->big_endian = 0;
				else
					w->aligned = 0;
			}
			reclen = sfc_u32(buf + pos + 4, w->big_endian);
			if (reclen < 12 || reclen % 4 != 0)
				w->aligned = 0;
		}
		pos += reclen;
	}
	if (pos != len)
		w->aligned = 0;
	return (w->aligned);
}

void
pcapint_sfc_records_lost(struct pcapint_sfc_records *w)
{
	w->aligned = 0;
}
