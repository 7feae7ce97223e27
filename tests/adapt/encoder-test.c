/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of how the dumper times its codec and sizes its blocks
 * (the codec stage and the planner of libpcap/sf-compress-write.c):
 *
 * - pcapint_sfc_block_compress() marks as cold the first block an encoder
 *   compresses at a level, whose CPU time includes setting the level
 *   up, so that the level controller does not take it for what the
 *   level costs.  Every codec with levels that libpcap was built with,
 *   one encoder each, through the same sequence of blocks.
 * - When the level adapts, zstd's rungs from level 3 up fill blocks of
 *   8 MiB, the lower ones and every other codec's 1 MiB; a block size
 *   the caller set, and a fixed level, keep one size.  The dumper's
 *   buffers hold the largest block.
 *
 * usage: encoder-test
 * Prints TAP-like lines; exits non-zero on failure.
 */

#include <config.h>

#include "ftmacros.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-compress.h"

#include "../lib-tap.h"

#define	BLOCK	(64 * 1024)

/* The blocks of zstd's upper rungs are this many times the block size. */
#define	UPPER_SCALE	8

struct step {
	int	try_codec;
	int	level;		/* the codec's: zstd -1 and 1, ... */
	int	cold;		/* what the block must be marked */
	const char *what;
};

struct codec_case {
	const struct pcapint_sfc_encoder *codec;
	const char *name;
	int	low, high;	/* two of its levels */
};

static void
run_case(const struct codec_case *c, u_char *in)
{
	/* low and high stand for the case's two levels. */
	static const struct step steps[] = {
		{ 1, 0, 1, "the encoder's first block" },
		{ 1, 0, 0, "the next block at the same level" },
		{ 1, 1, 1, "the first block at another level" },
		{ 1, 1, 0, "the next one" },
		{ 0, 0, 0, "a block stored without running the codec" },
		{ 1, 1, 0, "the codec again, at the level it last ran at" },
		{ 1, 0, 1, "back at the first level" },
	};
	struct pcapint_sfc_block b;
	char ebuf[PCAP_ERRBUF_SIZE];
	size_t i;

	memset(&b, 0, sizeof(b));
	b.enc = c->codec->enc_create(c->low, BLOCK, ebuf);
	if (b.enc == NULL) {
		check(0, "%s: create an encoder: %s", c->name, ebuf);
		return;
	}
	b.out_size = c->codec->enc_bound(b.enc, BLOCK);
	b.out = malloc(b.out_size);
	if (b.out == NULL) {
		check(0, "%s: malloc", c->name);
		c->codec->enc_free(b.enc);
		return;
	}
	b.warm_level = SFC_COLD_LEVEL;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		b.in = in;
		b.fill = BLOCK;
		b.try_codec = steps[i].try_codec;
		b.level = steps[i].level ? c->high : c->low;
		pcapint_sfc_block_compress(c->codec, &b);
		check(b.out_len > 0 && b.cold == steps[i].cold,
		    "%s, level %d, %s: %s (written %zd bytes)", c->name,
		    b.level, steps[i].try_codec ? "compressed" : "stored",
		    steps[i].what, b.out_len);
		if (b.out_len > 0 && steps[i].try_codec)
			check(b.out_len < BLOCK / 2,
			    "%s, level %d: the codec ran (%zd of %d bytes)",
			    c->name, b.level, b.out_len, BLOCK);
	}
	free(b.out);
	c->codec->enc_free(b.enc);
}

/*
 * The dumper's block sizes for a codec spec, with the block size set
 * to set_block unless it is 0: its buffers' size, and the block that
 * follows one planned at each rung of the ladder.  scaled_from is the
 * lowest level whose blocks are UPPER_SCALE times the block size, or
 * INT_MAX if none are.
 */
static void
run_sizes(const char *spec, size_t set_block, int scaled_from)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	struct pcapint_sfc_planner w;
	struct pcapint_sfc_adapt_sample load;
	struct pcapint_sfc_block b;
	pcap_dump_options_t *o;
	char ebuf[PCAP_ERRBUF_SIZE];
	size_t unit, want;
	u_int r;

	o = pcap_dump_options_create(ebuf);
	if (o == NULL || pcap_dump_options_set_compression(o, spec,
	    ebuf) != 0 || (set_block != 0 &&
	    pcap_dump_options_set_block_size(o, set_block, ebuf) != 0)) {
		check(0, "%s: options: %s", spec, ebuf);
		pcap_dump_options_free(o);
		return;
	}
	unit = set_block != 0 ? set_block : PCAP_DUMP_BLOCK_DEFAULT;
	memset(&load, 0, sizeof(load));
	if (pcapint_sfc_planner_init(&w, o, 0, ebuf) != 0) {
		check(0, "%s: level init: %s", spec, ebuf);
		pcap_dump_options_free(o);
		return;
	}
	want = scaled_from != INT_MAX ? UPPER_SCALE * unit : unit;
	check(w.block_size == want, "%s%s: buffers of %zu bytes (%zu)",
	    spec, set_block != 0 ? ", block size set" : "", want,
	    w.block_size);
	check(w.block_full == unit, "%s%s: first blocks of %zu bytes (%zu)",
	    spec, set_block != 0 ? ", block size set" : "", unit,
	    w.block_full);
	if (w.adapt == NULL) {
		memset(&b, 0, sizeof(b));
		pcapint_sfc_planner_plan(&w, &b);
		check(w.block_full == unit,
		    "%s: fixed level %d, blocks of %zu bytes (%zu)", spec,
		    b.level, unit, w.block_full);
		free(w.adapt);
		pcap_dump_options_free(o);
		return;
	}
	/*
	 * The controller on each rung in turn, as if it had just moved
	 * there: the next written block it learns from sets the size of
	 * the blocks filled from then on (one block is too few for it to
	 * move again).
	 */
	ladder = w.adapt->ladder;
	for (r = 0; r < ladder->nrungs; r++) {
		w.adapt->rung = r;
		memset(&b, 0, sizeof(b));
		pcapint_sfc_planner_plan(&w, &b);
		b.fill = 1000;
		b.try_codec = 1;
		b.out_len = 100;
		b.cpu_ns = 1000;
		pcapint_sfc_planner_learn(&w, &b);
		pcapint_sfc_planner_measure(&w, &b, 1000, &load);
		want = r > 0 && ladder->rungs[r].level >= scaled_from ?
		    UPPER_SCALE * unit : unit;
		check(b.rung == r && w.adapt->rung == r &&
		    w.block_full == want,
		    "%s%s: on rung %u (level %d), blocks of %zu bytes (%zu)",
		    spec, set_block != 0 ? ", block size set" : "", r,
		    b.level, want, w.block_full);
	}
	free(w.adapt);
	pcap_dump_options_free(o);
}

int
main(void)
{
	static const char line[] = "GET /index.html HTTP/1.1\r\n"
	    "Host: www.example.org\r\nAccept: */*\r\n\r\n";
	static const struct codec_case cases[] = {
#ifdef HAVE_LIBZSTD
		{ &pcapint_sfc_zstd_encoder, "zstd", -1, 1 },
#endif
#ifdef HAVE_LIBLZ4
		{ &pcapint_sfc_lz4_encoder, "lz4", 1, 3 },
#endif
#ifdef HAVE_ZLIB
		{ &pcapint_sfc_gzip_encoder, "gzip", 1, 4 },
#endif
		{ NULL, NULL, 0, 0 }
	};
	u_char *in;
	size_t i;

	in = malloc(BLOCK);
	if (in == NULL)
		return (2);
	for (i = 0; i < BLOCK; i++)
		in[i] = (u_char)line[i % (sizeof(line) - 1)];
	for (i = 0; cases[i].codec != NULL; i++)
		run_case(&cases[i], in);
	check(i > 0, "codecs with levels built: %zu", i);
	/* Each encoder carries its ladder; one level, no ladder. */
	check(pcapint_sfc_store.ladder == NULL
#ifdef HAVE_LIBZSTD
	    && pcapint_sfc_zstd_encoder.ladder == &pcapint_sfc_zstd_ladder
#endif
#ifdef HAVE_LIBLZ4
	    && pcapint_sfc_lz4_encoder.ladder == &pcapint_sfc_lz4_ladder
#endif
#ifdef HAVE_ZLIB
	    && pcapint_sfc_gzip_encoder.ladder == &pcapint_sfc_gzip_ladder
#endif
#ifdef HAVE_LIBLZO2
	    && pcapint_sfc_lzo_encoder.ladder == NULL
#endif
	    , "the encoders carry their ladders, store none");
#ifdef HAVE_LIBZSTD
	run_sizes("zstd:auto", 0, 3);
	run_sizes("zstd:auto", 1024 * 1024, INT_MAX);
	run_sizes("zstd:auto", 64 * 1024, INT_MAX);
	run_sizes("zstd:5", 0, INT_MAX);
#endif
#ifdef HAVE_LIBLZ4
	run_sizes("lz4:auto", 0, INT_MAX);
#endif
#ifdef HAVE_ZLIB
	run_sizes("gzip:auto", 0, INT_MAX);
#endif
	free(in);
	return (tap_end());
}
