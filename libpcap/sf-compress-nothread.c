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
 * Compressed savefiles without pthreads: no writer thread (the options
 * refuse one, see sf-compress-writer-options.c), and a
 * pcap_dump_close_async() that closes at once.
 */

#include <config.h>

#include <unistd.h>

#include "pcap-int.h"
#include "sf-compress-thread.h"
#include "sf-writer.h"

/* There is no writer thread to cancel: a plain write(). */
ssize_t
pcapint_writer_write_cancellable(int fd, const void *buf, size_t len)
{
	return (write(fd, buf, len));
}

int
pcapint_sfc_thr_start(struct pcapint_sfc_thr **tp,
    struct pcapint_sfc_pipeline *pl _U_, pcap_t *p _U_,
    const struct pcap_dump_options *opts _U_)
{
	*tp = NULL;
	return (0);
}

void
pcapint_sfc_thr_write(struct pcapint_sfc_thr *t _U_, const u_char *p _U_,
    size_t len _U_)
{
}

int
pcapint_sfc_thr_record(struct pcapint_sfc_thr *t _U_, const void *hdr _U_,
    const u_char *data _U_, bpf_u_int32 caplen _U_)
{
	return (-1);
}

int
pcapint_sfc_thr_flush(struct pcapint_sfc_thr *t _U_)
{
	return (0);
}

void
pcapint_sfc_thr_stats(struct pcapint_sfc_thr *t _U_,
    struct pcap_dump_stats *s _U_)
{
}

void
pcapint_sfc_thr_stop(struct pcapint_sfc_thr *t _U_)
{
}

int
pcap_dump_close_async(pcap_dumper_t *d, pcap_dump_close_handler done,
    void *user, char *errbuf)
{
	struct pcap_dump_stats st;
	const struct pcap_dump_stats *stp;
	char msg[PCAP_ERRBUF_SIZE];
	int status;

	if (d == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dumper");
		return (PCAP_ERROR);
	}
	status = pcapint_dump_close_report(d, &st, &stp, msg, sizeof(msg));
	if (done != NULL)
		done(user, status, stp, msg[0] != '\0' ? msg : NULL);
	return (0);
}

/* Every dumper handed over is closed already. */
u_int
pcap_dump_close_async_wait(u_int max_pending _U_)
{
	return (0);
}
