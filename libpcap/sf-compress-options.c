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
 * Compressed savefiles: the dump options, pcap_dump_options_create(3PCAP)
 * and the pcap_dump_options_set_*() calls.  Every value is checked when
 * it is set, so that a program reports a bad option where the user gave
 * it rather than when the first file is opened.
 */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress-options.h"

/*
 * Blocks of 1 MiB by default.  Real traffic repeats itself at distances
 * a block must span (a web server's responses come back every few
 * hundred kilobytes), and every block is compressed on its own, so a
 * block pays again for the first copy of whatever it holds: larger
 * blocks write fewer bytes, and the codecs run faster on them.  Past a
 * point they cost more than they save: on data that does not compress
 * the codecs slow down once a block no longer fits in the caches, a
 * block takes longer to reach a slow disk, and a file rotated by size
 * overshoots by up to a compressed block (tcpdump -C asks for smaller
 * blocks).  Two blocks (input and output) plus the codec state are all
 * the memory a dumper that compresses on the caller's thread needs.
 * The default is in pcap.h, for callers that size blocks of their own
 * from it.
 */
#ifdef SFC_ADAPTIVE_LEVEL
/*
 * Larger blocks are filled only by the adaptive zstd levels that a
 * disk-bound writer climbs to (see sf-compress-ladders.c), and only
 * while no block size is set.
 */
#endif
#define	SFC_DEFAULT_BLOCK	PCAP_DUMP_BLOCK_DEFAULT
#define	SFC_MIN_BLOCK		4096

pcap_dump_options_t *
pcap_dump_options_create(char *errbuf)
{
	pcap_dump_options_t *o;

	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	o->codec = &pcapint_sfc_store;
	o->level = 0;
	o->block_size = SFC_DEFAULT_BLOCK;
#ifdef SFC_WRITER_THREAD
	o->ring_size = 0;
	o->cpu = -1;
#endif
	return (o);
}

void
pcap_dump_options_free(pcap_dump_options_t *o)
{
	free(o);
}

/* The row of the container called name (namelen bytes), or NULL. */
static const struct pcapint_sfc_container *
sfc_find_container(const char *name, size_t namelen)
{
	const struct pcapint_sfc_container *c;
	u_int i;

	for (i = 0; i < SFC_NCONTAINERS; i++) {
		c = &pcapint_sfc_containers[i];
		if (strlen(c->name) == namelen &&
		    strncmp(name, c->name, namelen) == 0)
			return (c);
	}
	return (NULL);
}

/* "unknown compression": name every container, built or not. */
static void
sfc_unknown(const char *spec, size_t namelen, char *errbuf)
{
	char names[64];
	size_t n;
	u_int i;

	names[0] = '\0';
	for (i = 0; i < SFC_NCONTAINERS; i++) {
		n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "%s%s",
		    i == 0 ? "" : ", ", pcapint_sfc_containers[i].name);
	}
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "unknown compression \"%.*s\" (known: %s)",
	    (int)(namelen > 32 ? 32 : namelen), spec, names);
}

/*
 * enc at its default level, where the container has levels to choose
 * from.
 */
static int
sfc_default_level(pcap_dump_options_t *o,
    const struct pcapint_sfc_encoder *enc)
{
	o->codec = enc;
	o->level = enc->default_level;
#ifdef SFC_ADAPTIVE_LEVEL
	/* Without a level, the dumper picks it block by block. */
	o->adaptive = enc->compresses;
#endif
	return (0);
}

int
pcap_dump_options_set_compression(pcap_dump_options_t *o, const char *spec,
    char *errbuf)
{
	const struct pcapint_sfc_container *c;
	const struct pcapint_sfc_encoder *enc;
	const char *colon;
	size_t namelen;
	char *end;
	long level;

	if (o == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dump options");
		return (PCAP_ERROR);
	}
	if (spec == NULL || strcmp(spec, "default") == 0)
		return (sfc_default_level(o, pcapint_sfc_default_encoder()));
	colon = strchr(spec, ':');
	namelen = colon != NULL ? (size_t)(colon - spec) : strlen(spec);
	c = sfc_find_container(spec, namelen);
	if (c == NULL) {
		sfc_unknown(spec, namelen, errbuf);
		return (PCAP_ERROR);
	}
	enc = pcapint_sfc_encoders[c - pcapint_sfc_containers];
	if (enc == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "compression \"%s\" is not supported by this build of libpcap",
		    c->name);
		return (PCAP_ERROR);
	}
	if (!enc->compresses && colon != NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "compression \"%s\" takes no level", c->name);
		return (PCAP_ERROR);
	}
	if (colon == NULL)
		return (sfc_default_level(o, enc));
#ifdef SFC_ADAPTIVE_LEVEL
	/*
	 * "auto" says explicitly what no level means: the dumper picks the
	 * level block by block (sf-compress-planner.c).  A container with
	 * a single level, or none, keeps its default_level.
	 */
	if (strcmp(colon + 1, "auto") == 0)
		return (sfc_default_level(o, enc));
#endif
	errno = 0;
	level = strtol(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || errno != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "invalid compression level \"%.32s\" for %s",
		    colon + 1, c->name);
		return (PCAP_ERROR);
	}
	if (level < enc->min_level || level > enc->max_level) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "compression level %ld out of range for %s (%d..%d)",
		    level, c->name, enc->min_level, enc->max_level);
		return (PCAP_ERROR);
	}
	o->codec = enc;
	o->level = (int)level;
#ifdef SFC_ADAPTIVE_LEVEL
	o->adaptive = 0;
#endif
	return (0);
}

int
pcap_dump_options_set_block_size(pcap_dump_options_t *o, size_t size,
    char *errbuf)
{
	if (o == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dump options");
		return (PCAP_ERROR);
	}
	if (size < SFC_MIN_BLOCK || size > SFC_MAX_BLOCK) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "compression block size %zu out of range (%d..%d bytes)",
		    size, SFC_MIN_BLOCK, SFC_MAX_BLOCK);
		return (PCAP_ERROR);
	}
	o->block_size = size;
	o->block_size_set = 1;
	return (0);
}
