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
 * Compressed savefiles: the stages of a dumper, composed; see
 * sf-compress-pipeline.h.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress-pipeline.h"

int
pcapint_sfc_pipeline_open(struct pcapint_sfc_pipeline *pl, FILE *f,
    const struct pcap_dump_options *opts, int offline, char *errbuf)
{
	memset(pl, 0, sizeof(*pl));
	pl->codec = opts->codec;
	/* The level, and with it the size of the blocks. */
	if (pcapint_sfc_planner_init(&pl->planner, opts, offline,
	    errbuf) != 0)
		return (-1);
	pl->buf = malloc(pl->planner.block_size);
	if (pl->buf == NULL)
		goto nomem;
	pl->enc = pl->codec->enc_create(pl->planner.level,
	    pl->planner.block_size, errbuf);
	if (pl->enc == NULL)
		goto fail;
	pl->enc_warm_level = SFC_COLD_LEVEL;
	/* 0 for "store", which writes the block from where it is. */
	pl->out_size = pl->codec->enc_bound(pl->enc, pl->planner.block_size);
	if (pl->out_size != 0) {
		pl->out = malloc(pl->out_size);
		if (pl->out == NULL)
			goto nomem;
	}
	if (pcapint_sfc_sink_init(&pl->sink, f, pl->codec, pl->enc,
	    errbuf) != 0)
		goto fail;
	pcapint_sfc_assembler_init(&pl->assembler, pl->buf,
	    pl->planner.block_full, 0, pcapint_sfc_pipeline_block_full, pl);
	return (0);

nomem:
	pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
	    "malloc");
fail:
	pcapint_sfc_pipeline_free(pl);
	return (-1);
}

int
pcapint_sfc_pipeline_write(struct pcapint_sfc_pipeline *pl,
    const struct pcapint_sfc_block *b)
{
#ifdef SFC_ADAPTIVE_LEVEL
	struct pcapint_sfc_load load;
#endif
	uint64_t write_ns;

	if (pcapint_sfc_sink_block(&pl->sink, b, &write_ns) != 0)
		return (-1);
	pcapint_sfc_planner_learn(&pl->planner, b);
#ifdef SFC_ADAPTIVE_LEVEL
	memset(&load, 0, sizeof(load));
#ifdef SFC_WRITER_THREAD
	if (pl->load != NULL)
		pl->load(pl->load_ctx, &load);
#endif
	pcapint_sfc_planner_measure(&pl->planner, b, write_ns, &load);
#endif
	return (0);
}

int
pcapint_sfc_pipeline_block_full(void *ctx)
{
	struct pcapint_sfc_pipeline *pl = ctx;
	struct pcapint_sfc_assembler *a = &pl->assembler;
	struct pcapint_sfc_block b;
	int ret;

	if (pl->sink.err != 0)
		return (-1);
	b.in = a->buf;
	b.fill = a->fill;
	b.records = a->records;
	b.out = pl->out;
	b.out_size = pl->out_size;
	b.enc = pl->enc;
	b.warm_level = pl->enc_warm_level;
	pcapint_sfc_planner_plan(&pl->planner, &b);
	pcapint_sfc_block_compress(pl->codec, &b);
	pl->enc_warm_level = b.warm_level;
	ret = pcapint_sfc_pipeline_write(pl, &b);
	pcapint_sfc_assembler_next(a, a->buf, pl->planner.block_full);
	return (ret);
}
#if defined(SFC_WRITER_THREAD) && defined(SFC_ADAPTIVE_LEVEL)

void
pcapint_sfc_pipeline_set_load(struct pcapint_sfc_pipeline *pl,
    void (*load)(void *, struct pcapint_sfc_load *), void *ctx)
{
	pl->load = load;
	pl->load_ctx = ctx;
}
#endif

void
pcapint_sfc_pipeline_free(struct pcapint_sfc_pipeline *pl)
{
	if (pl->enc != NULL)
		pl->codec->enc_free(pl->enc);
	pl->enc = NULL;
	pcapint_sfc_planner_free(&pl->planner);
	free(pl->buf);
	pl->buf = NULL;
	free(pl->out);
	pl->out = NULL;
}

int
pcapint_sfc_pipeline_close(struct pcapint_sfc_pipeline *pl)
{
	int ret;

	(void)pcapint_sfc_assembler_flush(&pl->assembler);
	ret = pcapint_sfc_sink_close(&pl->sink, pl->enc);
	pcapint_sfc_pipeline_free(pl);
	return (ret);
}

void
pcapint_sfc_pipeline_stats(struct pcapint_sfc_pipeline *pl,
    struct pcap_dump_stats *s)
{
	/*
	 * Error first: once it is set, nothing more is written, so the
	 * counts below cannot move on to a state it does not explain.
	 */
	s->error = __atomic_load_n(&pl->sink.err, __ATOMIC_ACQUIRE);
	s->records_written = SFC_LOAD(pl->sink.records);
	s->records = SFC_LOAD(pl->assembler.in_records);
	s->bytes_in = SFC_LOAD(pl->assembler.in_bytes);
	s->bytes_out = SFC_LOAD(pl->sink.out_bytes);
	s->blocks = SFC_LOAD(pl->sink.blocks);
	s->blocks_stored = SFC_LOAD(pl->sink.blocks_stored);
#ifdef SFC_ADAPTIVE_LEVEL
	pcapint_sfc_planner_stats(&pl->planner, s);
#endif
}
