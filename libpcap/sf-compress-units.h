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
 * Compressed savefiles: the state of one reader, which the decompressing
 * read (sf-compress-decompress.c), reading past damage
 * (sf-compress-resync.c), seeking (sf-compress-seek.c) and the opener
 * (sf-compress-reader.c) share, and what it knows of its units: where
 * each starts, and how to start reading again at one.  Include after
 * ftmacros.h, pcap-int.h and sf-compress.h.
 */

#ifndef sf_compress_units_h
#define	sf_compress_units_h

#include "sf-compress-seektable.h"
#include "sf-compress-records.h"

struct sfc_reader {
	FILE	*fp;		/* the cookie stream, p->rfile */
	next_packet_op_t next_packet_op;	/* the pcap or pcapng reader's */
	const struct pcapint_sfc_decoder *ops;	/* the container's decoder */
	const char *name;	/* the container's, for messages */
	void	*dec;
	struct pcapint_sfc_input in;
	int	owns_raw;	/* close raw when the stream is closed */
	u_char	*hold;		/* one decompressed unit */
	size_t	hold_size;
	size_t	hold_len;
	size_t	hold_pos;
	int	streaming;	/* unit too large to hold: pass through */
	int	err;		/* sticky: every later read fails */
	int	truncated;	/* err is the file ending inside a unit */
	int64_t	unit_off;
	char	errmsg[PCAP_ERRBUF_SIZE];

	/* Seeking; offsets in the uncompressed stream are "uoff". */
	int64_t	upos;		/* uoff of the next byte handed out */
	int64_t	hold_uoff;	/* uoff of hold[0] */
	int	seekable;	/* raw file: 1 seeks, -1 cannot, 0 not asked */
	int64_t	raw_base;	/* where in raw the compressed stream starts */
	int	past_end;	/* a seek went past the end: reads give 0 */
	int64_t	end_uoff;	/* the length of the stream, once known */
	int	table_tried;	/* looked for a seek table */
	int	table_used;	/* units[] is a seek table's */
	int64_t	hold_coff;	/* where the unit at hold_uoff starts */
	struct pcapint_sfc_unit_start *units;	/* unit starts, ascending */
	size_t	nunits;
	size_t	units_size;

	/* Damaged units skipped, see pcapint_sfc_skip_damaged(). */
	struct pcapint_sfc_records records;	/* where records end */
	int	resumed;	/* the unit being read follows a skipped one */
	int64_t	damaged;	/* how many */
	int64_t	damaged_last;	/* raw offset of the last one */
	char	damage[PCAP_ERRBUF_SIZE];	/* what the first one was */
};

/* Whether the raw file can seek (a file, not a pipe); asked once. */
extern int pcapint_sfc_raw_seekable(struct sfc_reader *);

/*
 * Start reading again at a unit start with a new decoder; 0, or -1
 * with errno set.
 */
extern int pcapint_sfc_restart_at(struct sfc_reader *,
    const struct pcapint_sfc_unit_start *);

/*
 * The unit that starts at coff in the compressed file was read whole,
 * from start to end in the stream: 0, or -1 with the sticky error set
 * when a seek table said otherwise.
 */
extern int pcapint_sfc_check_unit(struct sfc_reader *, int64_t coff,
    int64_t start, int64_t end);

/* A unit starts at coff in the compressed file and uoff in the stream. */
extern void pcapint_sfc_note_unit(struct sfc_reader *, int64_t coff,
    int64_t uoff);

#endif
