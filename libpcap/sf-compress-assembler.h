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
 * Compressed savefiles: the assembler, the first stage of a dumper and
 * the one place that parses the pcap byte stream.
 *
 * Bytes reach a dumper in two ways: pcap_dump() hands over whole
 * records, and anything written to the dumper's FILE * (the file header
 * from pcap_dump_fopen(), programs that fwrite() records of their own)
 * arrives in pieces of any size.  The assembler follows the record
 * structure of the stream either way, and puts the records into the
 * block so that every block ends at a record boundary, which makes a
 * file cut after any block a valid savefile: a record that does not fit
 * in what is left of the block starts the next one, and only a record
 * larger than a whole block spans blocks.  When a block is full it is
 * handed to whoever moves blocks on, which gives the assembler an empty one to fill next.
 *
 * Records are in host byte order, as pcap_dump() writes them.
 */

#ifndef sf_compress_assembler_h
#define	sf_compress_assembler_h

#include <stddef.h>
#include <stdint.h>

#include "sf-compress-block.h"

struct pcapint_sfc_assembler {
	/* The block being filled. */
	u_char	*buf;
	size_t	fill;
	size_t	full;		/* the fill at which it is full */
	uint64_t records;	/* records that ended in it */

	/*
	 * Hand the full block on: the callee writes or queues buf[0,
	 * fill), and calls pcapint_sfc_assembler_next().  Returns
	 * 0, or -1 once the dumper has a sticky error: from then on the
	 * assembler stores nothing, but still counts the records.
	 */
	int	(*block_full)(void *ctx);
	void	*ctx;
	int	failed;
#ifdef SFC_WRITER_THREAD

	/*
	 * If not NULL, told each time a record ends, for a consumer that
	 * takes records one by one (the writer thread's ring).
	 */
	void	(*record_end)(void *ctx);
#endif

	/* The parse of the stream. */
	uint64_t in_bytes;	/* bytes of pcap stream so far */
	uint64_t in_records;	/* records, complete, so far */
				/* (both read with SFC_LOAD() elsewhere) */
	u_char	hdr[PCAP_REC_HDR_LEN];	/* the record header so far */
	size_t	hdr_fill;
	uint64_t body;		/* body bytes of the current record left */

};

/*
 * Start with an empty block; skip_file_header is set for a stream
 * whose file header went elsewhere, so that it holds records only.
 */
extern void pcapint_sfc_assembler_init(struct pcapint_sfc_assembler *,
    u_char *buf, size_t full, int skip_file_header,
    int (*block_full)(void *), void *ctx);

/* Take len bytes of the stream, split anywhere. */
extern void pcapint_sfc_assemble(struct pcapint_sfc_assembler *,
    const u_char *, size_t len);

/*
 * Take one whole record (hdr is PCAP_REC_HDR_LEN bytes); 0, or -1 if
 * the stream is not at a record boundary, in which case nothing was
 * taken and the record must be written as bytes of the stream.
 */
extern int pcapint_sfc_assemble_record(struct pcapint_sfc_assembler *,
    const void *hdr, const u_char *data, size_t caplen);

/* Whether the stream is between records. */
#define	PCAPINT_SFC_AT_RECORD_BOUNDARY(a) \
	((a)->in_bytes >= PCAP_FILE_HDR_LEN && (a)->hdr_fill == 0 && \
	 (a)->body == 0)

/* Hand on what is in the block now, if anything; 0 or -1 as above. */
extern int pcapint_sfc_assembler_flush(struct pcapint_sfc_assembler *);

/*
 * For block_full: the block was taken; fill buf next, full at full
 * bytes.  buf may be the block just taken, whose contents go.
 */
extern void pcapint_sfc_assembler_next(struct pcapint_sfc_assembler *,
    u_char *buf, size_t full);

/*
 * From now on hand full blocks to block_full(ctx), starting with buf
 * (what is in the block now moves there, if buf is another buffer).
 */
extern void pcapint_sfc_assembler_redirect(struct pcapint_sfc_assembler *,
    u_char *buf, int (*block_full)(void *), void *ctx);

#endif
