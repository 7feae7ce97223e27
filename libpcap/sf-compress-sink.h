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
 * Compressed savefiles: the sink, the last stage of a dumper.  It
 * writes each block with write() (a stream header first, a trailer at
 * the end), keeps the first error, which is sticky, and counts what is
 * on disk.  It decides nothing about the blocks it is given.
 */

#ifndef sf_compress_sink_h
#define	sf_compress_sink_h

#include <stdio.h>
#include <stdint.h>

#include "sf-compress-block.h"

struct pcapint_sfc_sink {
	FILE	*raw;		/* where the blocks go */
	int	fd;		/* fileno(raw) */
	int64_t	base;		/* offset of raw when the dumper began */
	const struct pcapint_sfc_encoder *codec;
	const char *name;	/* the container's, for messages */
	u_char	hdr[SFC_MAX_HEADER];	/* stream header not yet written */
	size_t	hdr_len;

	/* Read by other threads with SFC_LOAD(). */
	uint64_t out_bytes;	/* bytes written */
	uint64_t blocks;	/* blocks written */
	uint64_t blocks_stored;	/* ... of them stored by a codec */
	uint64_t records;	/* records written */

	/*
	 * The first error, sticky, 0 if none; stored with release
	 * semantics after errmsg, so that a reader that sees it set
	 * may read the message.
	 */
	int	err;
	char	errmsg[PCAP_ERRBUF_SIZE];
};

/*
 * Write to f, from its descriptor, blocks of codec whose encoder enc
 * writes the stream header, if any, before the first block.  Whatever
 * the caller had buffered on f goes out first.  0, or -1 with errbuf
 * filled in.
 */
extern int pcapint_sfc_sink_init(struct pcapint_sfc_sink *, FILE *f,
    const struct pcapint_sfc_encoder *codec, void *enc, char *errbuf);

/* Keep err and the message for what failed, unless an error is kept. */
extern void pcapint_sfc_sink_fail(struct pcapint_sfc_sink *, int err,
    const char *what);
#ifdef SFC_WRITER_THREAD

/*
 * The same from another thread than the one that writes, with msg as
 * the whole message: the writer gave up on a stalled file, or the
 * dumper never started (then msg may be NULL).
 */
extern void pcapint_sfc_sink_give_up(struct pcapint_sfc_sink *, int err,
    const char *msg);
#endif

/*
 * Write a compressed block (out_len < 0 if the codec failed, ebuf says
 * why) and count it; *write_ns gets the time write() took.  0, or -1
 * after an error, this one or an earlier one.
 */
extern int pcapint_sfc_sink_block(struct pcapint_sfc_sink *,
    const struct pcapint_sfc_block *, uint64_t *write_ns);

/*
 * The end of the stream: the codec's trailer, if anything was written,
 * then close raw unless it is the standard output.  0, or -1 after an
 * error.
 */
extern int pcapint_sfc_sink_close(struct pcapint_sfc_sink *, void *enc);

/* Where the file ends: raw's offset when we began plus what we wrote. */
extern int64_t pcapint_sfc_sink_tell(struct pcapint_sfc_sink *);

#endif
