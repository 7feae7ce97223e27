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
 * Compressed savefiles: the stages of a dumper, composed.  Records flow
 * one way, a block at a time:
 *
 *	assembler  the one parser of the pcap stream; whole records into
 *		   the block (sf-compress-assembler.c)
 *	planner	   store or compress, and at which level
 *		   (sf-compress-planner.c)
 *	codec	   one call of the container's codec on the block
 *		   (sf-compress-block.c)
 *	sink	   write(), the sticky error, the accounting
 *		   (sf-compress-sink.c)
 *
 * Each stage keeps its own state.  Here, the full block goes through
 * the stages on the thread that filled it.
 */
#ifdef SFC_WRITER_THREAD
/*
 * A writer thread (sf-compress-thread.c) runs the same stages on its
 * own thread, and its compression helpers may run the codec stage of
 * several blocks at once; they move blocks between the stages, and the
 * blocks still reach the sink in order.
 */
#endif

#ifndef sf_compress_pipeline_h
#define	sf_compress_pipeline_h

#include <stdio.h>

#include "sf-compress-block.h"
#include "sf-compress-options.h"
#include "sf-compress-assembler.h"
#include "sf-compress-planner.h"
#include "sf-compress-sink.h"

struct pcapint_sfc_pipeline {
	const struct pcapint_sfc_encoder *codec;
	struct pcapint_sfc_assembler assembler;
	struct pcapint_sfc_planner planner;
	struct pcapint_sfc_sink sink;

	/* The codec stage on the thread that fills blocks. */
	u_char	*buf;		/* the block the assembler began with */
	void	*enc;
	int	enc_warm_level;	/* as warm_level in a block, for enc */
	u_char	*out;		/* one compressed block; NULL for store */
	size_t	out_size;
#if defined(SFC_WRITER_THREAD) && defined(SFC_ADAPTIVE_LEVEL)

	/*
	 * The writer thread's load, for the level that adapts: NULL
	 * without a writer thread.
	 */
	void	(*load)(void *ctx, struct pcapint_sfc_load *);
	void	*load_ctx;
#endif
};

/*
 * Set the stages up to write to f with opts; offline as for the
 * planner.  0, or -1 with errbuf filled in and everything freed (f is
 * left open).
 */
extern int pcapint_sfc_pipeline_open(struct pcapint_sfc_pipeline *, FILE *f,
    const struct pcap_dump_options *opts, int offline, char *errbuf);

/*
 * The assembler's block_full: the full block through the planner, the
 * codec and the sink, here and now.
 */
extern int pcapint_sfc_pipeline_block_full(void *pipeline);

/*
 * A compressed block to the sink, then what it measured to the planner:
 * blocks must come in the order they were planned.  0, or -1 after an
 * error.
 */
extern int pcapint_sfc_pipeline_write(struct pcapint_sfc_pipeline *,
    const struct pcapint_sfc_block *);

/*
 * The last block, the trailer, and raw closed (not the standard
 * output); everything is freed.  0, or -1 after an error.
 */
extern int pcapint_sfc_pipeline_close(struct pcapint_sfc_pipeline *);
#if defined(SFC_WRITER_THREAD) && defined(SFC_ADAPTIVE_LEVEL)

/*
 * Tell the planner the writer thread's load with load(ctx), from now on
 * (NULL: no writer thread).
 */
extern void pcapint_sfc_pipeline_set_load(struct pcapint_sfc_pipeline *,
    void (*load)(void *, struct pcapint_sfc_load *), void *ctx);
#endif

/* Free everything, writing nothing; for a dumper that never started. */
extern void pcapint_sfc_pipeline_free(struct pcapint_sfc_pipeline *);

/* Every stage's figures, for pcap_dump_get_stats(). */
extern void pcapint_sfc_pipeline_stats(struct pcapint_sfc_pipeline *,
    struct pcap_dump_stats *);

#endif
