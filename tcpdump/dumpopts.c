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
 * tcpdump's savefile options, which go to libpcap's dumper options:
 * --compress, --writer-cpu and --writer-ring, the checks that need all
 * the options, and the writer thread that a live capture to a savefile
 * gets by default.  dumpfile.c opens and closes the savefiles with the
 * options built here.
 */

#include <config.h>

#include "netdissect-stdinc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <pcap.h>

#include "netdissect.h"
#include "interface.h"
#include "dumpopts.h"

int
dumpopts_parse_size(const char *arg, uint64_t max, uint64_t *bytes)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	if (shift != 0)
		end++;
	if (*arg < '0' || *arg > '9' || *end != '\0' || errno != 0 ||
	    v > (max >> shift))
		return (-1);
	*bytes = (uint64_t)v << shift;
	return (0);
}

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS

pcap_dump_options_t *dumpopts_options;	/* NULL: a plain dumper */
int dumpopts_writer_on;			/* a writer thread, asked for or by default */

static int compress_given;	/* --compress */
static int writer_given;	/* --writer-cpu or --writer-ring */
static int writer_cpu_given;	/* --writer-cpu */
static int writer_off;		/* --writer-ring=0 */

/*
 * How much nicer than the capture the writer thread runs.  Where the
 * two share a CPU, the capture must win: behind it is the kernel's
 * buffer, which drops packets when it overflows, behind the writer
 * only our ring, which absorbs a backlog.  At +5 the scheduler gives
 * the writer about a quarter of a CPU both want (CFS weights 335 to
 * 1024), and all of it when the capture sleeps; the writer needs a
 * share, as a starved writer fills the ring and drops as surely.
 */
#define	WRITER_NICE_INCR	5

/*
 * The ring of a writer thread that tcpdump starts by default: libpcap's
 * default, PCAP_DUMP_WRITER_RING_DEFAULT (128 MiB), or a sixteenth of
 * the machine's memory if that is less, as a ring behind a slow disk
 * fills and stays resident, and tcpdump also runs on small boxes; but
 * not below 4 MiB, four of libpcap's default 1 MiB blocks.
 */
#define	DEFAULT_RING_MIN	((size_t)4 * 1024 * 1024)

/*
 * -C ends a file at the first block boundary past its size, so a file
 * overshoots by up to a compressed block: with libpcap's default 1 MiB
 * blocks (PCAP_DUMP_BLOCK_DEFAULT, the largest worth having at every
 * level, for the gain in ratio), "-C 1" files of incompressible traffic
 * could reach 2 MB.  Blocks of at most a quarter of the size keep that
 * within 25%: the largest power of two that is, from libpcap's smallest
 * block, 4096 bytes (a power of two divides the pages and LZ4's block
 * sizes evenly).
 */
#define	ROTATION_BLOCK_SHARE	4
#define	ROTATION_BLOCK_MIN	((int64_t)4096)
#define	ROTATION_BLOCK_MAX	((int64_t)PCAP_DUMP_BLOCK_DEFAULT)

static int
options_create(char *ebuf)
{
	if (dumpopts_options == NULL &&
	    (dumpopts_options = pcap_dump_options_create(ebuf)) == NULL)
		return (-1);
	return (0);
}

int
dumpopts_compress(const char *arg, char *ebuf)
{
	if (options_create(ebuf) != 0)
		return (-1);
	compress_given = 1;
	return (pcap_dump_options_set_compression(dumpopts_options, arg, ebuf));
}

/*
 * --writer-cpu=N pins a writer thread, --writer-ring=SIZE[k|m|g] sets
 * the size of its ring; either turns it on, and --writer-ring=0 turns
 * it off.
 */
int
dumpopts_writer(int cpu, const char *arg, char *ebuf)
{
	const char *opt = cpu ? "--writer-cpu" : "--writer-ring";
	char msg[PCAP_ERRBUF_SIZE];
	uint64_t v;
	char *end;
	int bad, r;

	if (options_create(ebuf) != 0)
		return (-1);
	writer_given = 1;
	if (cpu) {
		writer_cpu_given = 1;
		errno = 0;
		v = strtoull(arg, &end, 10);
		bad = *arg < '0' || *arg > '9' || *end != '\0' ||
		    errno != 0 || v > INT_MAX;
	} else
		bad = dumpopts_parse_size(arg, SIZE_MAX, &v) != 0;
	if (bad) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE, cpu ?
		    "invalid CPU number \"%s\" for %s" :
		    "invalid ring size \"%s\" for %s (bytes, or k, m, g)",
		    arg, opt);
		return (-1);
	}
	if (cpu)
		r = pcap_dump_options_set_writer_cpu(dumpopts_options, (int)v,
		    msg);
	else {
		writer_off = v == 0;
		r = pcap_dump_options_set_writer_thread(dumpopts_options,
		    (size_t)v, msg);
	}
	if (r != 0) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE, "%s: %.200s", opt, msg);
		return (-1);
	}
	return (0);
}

static size_t
default_ring_size(void)
{
	size_t ring = PCAP_DUMP_WRITER_RING_DEFAULT;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages, page_size;
	uint64_t memory;

	pages = sysconf(_SC_PHYS_PAGES);
	page_size = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page_size > 0) {
		memory = (uint64_t)pages * (uint64_t)page_size;
		if (memory / 16 < ring)
			ring = (size_t)(memory / 16);
	}
#endif
	if (ring < DEFAULT_RING_MIN)
		ring = DEFAULT_RING_MIN;
	return (ring);
}

/*
 * A live capture to a savefile gets a writer thread unless told
 * otherwise (--writer-ring=0), as a disk that stalls for a moment then
 * costs ring space instead of packets; what the thread costs is one
 * copy of each record into its ring.
 *
 * Reading savefiles, only with --compress: nothing overflows there if
 * the disk is slow, but the thread and its helpers compress on other
 * CPUs while this one reads, which makes a compressed copy as fast as
 * an uncompressed one.  Not with -C then, which compares the bytes on disk
 * with its limit after each packet: reading outruns the writer, the
 * bytes on disk lag behind by the ring, and the files would grow by as
 * much.  Not with -U either: -U waits for every packet to be written,
 * which leaves the thread nothing to decouple.  Where libpcap cannot
 * run the thread (no pthreads), the dumper stays a plain one.
 */
static void
writer_by_default(void)
{
	char msg[PCAP_ERRBUF_SIZE];
	int created;

	created = dumpopts_options == NULL;
	if (options_create(msg) != 0)
		return;
	if (pcap_dump_options_set_writer_thread(dumpopts_options,
	    default_ring_size(), msg) == 0)
		dumpopts_writer_on = 1;
	else if (created) {
		pcap_dump_options_free(dumpopts_options);
		dumpopts_options = NULL;
	}
}

static int
rotation_block_size(int64_t size_rotation, char *ebuf)
{
	int64_t block = ROTATION_BLOCK_MIN;

	while (block < ROTATION_BLOCK_MAX &&
	    block * 2 <= size_rotation / ROTATION_BLOCK_SHARE)
		block *= 2;
	return (pcap_dump_options_set_block_size(dumpopts_options,
	    (size_t)block, ebuf));
}

int
dumpopts_check(int have_w, int offline, int packet_buffered,
    int64_t size_rotation, char *ebuf)
{
	char msg[PCAP_ERRBUF_SIZE];

	if (writer_off && writer_cpu_given) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "--writer-cpu cannot be used with --writer-ring=0.");
		return (-1);
	}
	dumpopts_writer_on = writer_given && !writer_off;
	/* Without a thread or compression, the plain dumper stock has. */
	if (writer_off && !compress_given) {
		pcap_dump_options_free(dumpopts_options);
		dumpopts_options = NULL;
	}
	if (have_w && !writer_given && !packet_buffered &&
	    (!offline || (compress_given && size_rotation == 0)))
		writer_by_default();
	if (have_w && size_rotation > 0 && dumpopts_options != NULL &&
	    rotation_block_size(size_rotation, ebuf) != 0)
		return (-1);
	/*
	 * Refused only where libpcap cannot do it (no per-thread nice
	 * value): the writer still works, at the capture's priority, and
	 * the user is told so.  A thread that fails to lower its priority
	 * on a system that has it fails the open, and tcpdump with it.
	 */
	if (have_w && dumpopts_writer_on &&
	    pcap_dump_options_set_writer_priority(dumpopts_options,
	    WRITER_NICE_INCR, msg) != 0)
		fprintf(stderr,
		    "%s: warning: %.200s; the writer thread runs at the capture's priority\n",
		    program_name, msg);
	if (have_w)
		return (0);
	if (writer_given) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "--writer-cpu and --writer-ring cannot be used without -w.");
		return (-1);
	}
	if (dumpopts_options != NULL) {
		snprintf(ebuf, PCAP_ERRBUF_SIZE,
		    "--compress cannot be used without -w.");
		return (-1);
	}
	return (0);
}

#else /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */

/*
 * The libpcap tcpdump was built with has no dumper options: the options
 * are known, so that the user learns why they do not work, and refused.
 */
int
dumpopts_compress(const char *arg _U_, char *ebuf)
{
	snprintf(ebuf, PCAP_ERRBUF_SIZE,
	    "this tcpdump's libpcap cannot write compressed savefiles");
	return (-1);
}

int
dumpopts_writer(int cpu, const char *arg _U_, char *ebuf)
{
	snprintf(ebuf, PCAP_ERRBUF_SIZE,
	    "%s: this tcpdump's libpcap has no writer thread",
	    cpu ? "--writer-cpu" : "--writer-ring");
	return (-1);
}

int
dumpopts_check(int have_w _U_, int offline _U_, int packet_buffered _U_,
    int64_t size_rotation _U_, char *ebuf _U_)
{
	return (0);
}

#endif /* HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS */
