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
 * Compressed savefiles: the dump options of the writer thread,
 * pcap_dump_options_set_writer_thread(), _cpu() and _priority().  As
 * the other options (sf-compress-options.c), each is checked when it is
 * set.  Without pthreads, every request for a writer thread is refused
 * with a message that says so.
 */

#include <config.h>

#include <stdio.h>

#include "pcap-int.h"
#include "sf-compress-options.h"
#ifdef HAVE_PTHREADS
#include "sf-writer.h"
#endif

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
