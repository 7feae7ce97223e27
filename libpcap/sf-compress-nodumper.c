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
 * Dumpers with options where there is no fopencookie(): a dumper cannot
 * be both a FILE * and compress.  The calls exist all the same: with
 * no options they open the plain dumper, as sf-compress-dumper.c does,
 * and with options they fail with a clear message.  Built instead of
 * sf-compress-dumper.c.
 */

#include <config.h>

#include "pcap-int.h"
#include "sf-compress-encoder.h"

#define	SFC_NO_DUMPER	"compressed savefiles are not supported on this platform"

/*
 * No options give the plain dumper here too, so that a program needs
 * only the one opener; options are refused.
 */
pcap_dumper_t *
pcap_dump_fopen_with_options(pcap_t *p, FILE *f,
    const pcap_dump_options_t *opts)
{
	if (opts == NULL)
		return (pcap_dump_fopen(p, f));
	snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", SFC_NO_DUMPER);
	/* As documented, f is closed on failure (but not stdout). */
	if (f != NULL && f != stdout)
		(void)fclose(f);
	return (NULL);
}

pcap_dumper_t *
pcap_dump_open_with_options(pcap_t *p, const char *fname,
    const pcap_dump_options_t *opts)
{
	if (opts == NULL)
		return (pcap_dump_open(p, fname));
	snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", SFC_NO_DUMPER);
	return (NULL);
}

int
pcapint_dump_compress_flush(FILE *fp _U_)
{
	return (0);
}

int
pcapint_dump_compress_record(FILE *fp _U_, const void *hdr _U_,
    const u_char *data _U_, bpf_u_int32 caplen _U_)
{
	return (-1);
}

int
pcap_dump_get_stats(pcap_dumper_t *d _U_, struct pcap_dump_stats *st _U_,
    size_t stats_size _U_)
{
	return (PCAP_ERROR);
}

const char *
pcap_dump_geterr(pcap_dumper_t *d _U_)
{
	return (NULL);
}
