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
 * Closing a dumper and collecting what a pcap_dump_close_async()
 * handler is told: sf-close-async.c does it on a thread of its own,
 * sf-compress-nothread.c at once.
 */

#ifndef sf_close_async_h
#define	sf_close_async_h

#include <stdio.h>
#include <string.h>

#include "pcap-int.h"

/*
 * Flush a dumper, take its final figures and error message and close
 * it.  Returns 0 or PCAP_ERROR; *stp is NULL if there are no figures (a
 * plain dumper), msg empty if no error.
 */
static inline int
pcapint_dump_close_report(pcap_dumper_t *d, struct pcap_dump_stats *st,
    const struct pcap_dump_stats **stp, char *msg, size_t msgsize)
{
	const char *e;
	int status;

	/*
	 * Flush first, which waits for the ring to drain: the figures
	 * taken after it are final (close only adds a trailer).
	 */
	status = pcap_dump_flush(d) == -1 ? PCAP_ERROR : 0;
	memset(st, 0, sizeof(*st));
	*stp = pcap_dump_get_stats(d, st, sizeof(*st)) == 0 ? st : NULL;
	msg[0] = '\0';
	e = pcap_dump_geterr(d);
	if (e != NULL)
		pcapint_strlcpy(msg, e, msgsize);
	pcap_dump_close(d);
	if (status != 0 && msg[0] == '\0')
		snprintf(msg, msgsize, "error flushing the savefile");
	return (status);
}

#endif
