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
#ifdef HAVE_PTHREADS
#include "sf-writer-sched.h"
#endif

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
 * blocks).  So only the adaptive zstd levels that a disk-bound writer
 * climbs to fill larger blocks (see sf-compress-ladders.c), and only
 * while no block size is set.  Two blocks (input and output) plus the
 * codec state are all the memory a dumper without a writer thread
 * needs.  The default is in pcap.h, for callers that size blocks of
 * their own from it.
 */
#define	SFC_DEFAULT_BLOCK	PCAP_DUMP_BLOCK_DEFAULT
#define	SFC_MIN_BLOCK		4096

/*
 * Writer ring bounds.  The default, PCAP_DUMP_WRITER_RING_DEFAULT in
 * pcap/pcap.h, absorbs bursts of seconds at line rate while it stays
 * small next to the memory of a capture box.  A ring smaller than a
 * 64 KiB record makes little sense; the top is what a size_t can hold
 * comfortably.
 */
#define	SFC_MIN_RING		(64 * 1024)
#define	SFC_MAX_RING		((size_t)1 << (sizeof(size_t) > 4 ? 40 : 30))

#ifndef HAVE_PTHREADS
#define	SFC_NO_THREADS	"this build of libpcap has no writer thread (no pthreads)"
#endif

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
	o->ring_size = 0;
	o->cpu = -1;
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
	/*
	 * With no level, the dumper picks the level block by block
	 * (sf-compress-planner.c); "auto" says so explicitly.  A container
	 * with a single level, or none, keeps its default_level.
	 */
	if (spec == NULL || strcmp(spec, "default") == 0) {
		o->codec = pcapint_sfc_default_encoder();
		o->level = o->codec->default_level;
		o->adaptive = o->codec->compresses;
		return (0);
	}
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
	if (colon == NULL || strcmp(colon + 1, "auto") == 0) {
		o->codec = enc;
		o->level = enc->default_level;
		o->adaptive = enc->compresses;
		return (0);
	}
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
	o->adaptive = 0;
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

int
pcap_dump_options_set_writer_thread(pcap_dump_options_t *o, size_t ring_size,
    char *errbuf)
{
	if (o == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dump options");
		return (PCAP_ERROR);
	}
	if (ring_size == 0) {
		/* Off, pinning included. */
		o->ring_size = 0;
		o->cpu = -1;
		return (0);
	}
#ifdef HAVE_PTHREADS
	if (ring_size < SFC_MIN_RING || ring_size > SFC_MAX_RING) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "writer ring size %zu out of range (%d..%zu bytes)",
		    ring_size, SFC_MIN_RING, SFC_MAX_RING);
		return (PCAP_ERROR);
	}
#else
	snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", SFC_NO_THREADS);
	return (PCAP_ERROR);
#endif
	o->ring_size = ring_size;
	return (0);
}

int
pcap_dump_options_set_writer_cpu(pcap_dump_options_t *o, int cpu,
    char *errbuf)
{
	if (o == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dump options");
		return (PCAP_ERROR);
	}
	if (cpu == -1) {
		o->cpu = -1;
		return (0);
	}
	/*
	 * Checked when the option is set, so that a bad CPU number is
	 * reported when it is given rather than when the first file is
	 * opened; the thread fails to start too if the CPU went away in
	 * between.
	 */
#ifdef HAVE_PTHREADS
	if (pcapint_writer_check_cpu(cpu, errbuf) != 0)
		return (PCAP_ERROR);
#else
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "cannot pin the writer thread to CPU %d: %s", cpu, SFC_NO_THREADS);
	return (PCAP_ERROR);
#endif
	o->cpu = cpu;
	if (o->ring_size == 0)
		o->ring_size = PCAP_DUMP_WRITER_RING_DEFAULT;
	return (0);
}

int
pcap_dump_options_set_writer_priority(pcap_dump_options_t *o, int nice_incr,
    char *errbuf)
{
	if (o == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dump options");
		return (PCAP_ERROR);
	}
	/*
	 * Like the CPU, refused when it is given; it takes effect when a
	 * dumper's writer thread starts, and only if there is one.
	 */
#ifdef HAVE_PTHREADS
	if (pcapint_writer_check_nice(nice_incr, errbuf) != 0)
		return (PCAP_ERROR);
#else
	if (nice_incr != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "cannot lower the writer thread's priority: %s",
		    SFC_NO_THREADS);
		return (PCAP_ERROR);
	}
#endif
	o->nice_incr = nice_incr;
	return (0);
}
