/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of how the dumper times its codec (libpcap/
 * sf-compress-level.c): pcapint_sfc_compress() marks as cold the first
 * block an encoder compresses at a level, whose CPU time includes
 * setting the level up, so that the level controller does not take it
 * for what the level costs.  Every codec with levels that libpcap was
 * built with, one encoder each, through the same sequence of blocks.
 *
 * usage: encoder-test
 * Prints TAP-like lines; exits non-zero on failure.
 */

#include <config.h>

#include "ftmacros.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-compress-dumper.h"

#include "../lib-tap.h"

#define	BLOCK	(64 * 1024)

struct step {
	int	try_codec;
	int	level;		/* the codec's: zstd -1 and 1, ... */
	int	cold;		/* what the block must be marked */
	const char *what;
};

struct codec_case {
	const struct pcapint_sfc_codec *codec;
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
		pcapint_sfc_compress(c->codec, &b);
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

int
main(void)
{
	static const char line[] = "GET /index.html HTTP/1.1\r\n"
	    "Host: www.example.org\r\nAccept: */*\r\n\r\n";
	static const struct codec_case cases[] = {
#ifdef HAVE_LIBZSTD
		{ &pcapint_sfc_zstd, "zstd", -1, 1 },
#endif
#ifdef HAVE_LIBLZ4
		{ &pcapint_sfc_lz4, "lz4", 1, 3 },
#endif
#ifdef HAVE_ZLIB
		{ &pcapint_sfc_gzip, "gzip", 1, 4 },
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
	free(in);
	return (tap_end());
}
