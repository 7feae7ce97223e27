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
 * ERSPAN mode: DLT_ERSPAN handles deliver the frames mirrored in ERSPAN,
 * stripped here once the filter, compiled for the outer frames, passed.
 */

#include <config.h>
#include <string.h>
#include "pcap-int.h"
#include "pcap-erspan.h"

/*
 * The mode's own filter, an empty expression's: if set, switch to dlt
 * with it; if not, whether it is in place (no hook in pcap_setfilter()).
 */
static int
erspan_empty_filter(pcap_t *p, int dlt, int set)
{
	struct bpf_program prog;
	int old = p->linktype, ret = -1;

	if (!set && p->fcode.bf_insns == NULL)
		return (0);
	p->linktype = dlt;
	if (pcap_compile(p, &prog, "", 1, PCAP_NETMASK_UNKNOWN) != -1) {
		ret = set ? pcap_setfilter(p, &prog) :
		    prog.bf_len == p->fcode.bf_len &&
		    memcmp(prog.bf_insns, p->fcode.bf_insns,
		    prog.bf_len * sizeof(*prog.bf_insns)) == 0;
		pcap_freecode(&prog);
	}
	if (ret == -1)
		p->linktype = old;
	return (ret);
}

/*
 * Entering the mode replaces any filter, so the kernel keeps all but
 * ERSPAN before the application sets one; leaving replaces only its own.
 */
int
pcapint_erspan_set_mode(pcap_t *p, int dlt)
{
	int own;

	if (dlt == p->linktype ||
	    (dlt != DLT_ERSPAN && p->linktype != DLT_ERSPAN))
		return (0);
	if (dlt != DLT_ERSPAN &&
	    (own = erspan_empty_filter(p, p->linktype, 0)) <= 0)
		return (own);
	return (erspan_empty_filter(p, dlt, 1) == -1 ? -1 : 0);
}

int
pcapint_erspan_check_file_linktype(int dlt, char *errbuf)
{
	if (dlt != DLT_ERSPAN)
		return (0);
	/* ERSPAN mode writes LINKTYPE_ETHERNET; no LINKTYPE_ has this. */
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "the savefile's link-layer type %d is the provisional value of DLT_ERSPAN, which no savefile has",
	    dlt);
	return (-1);
}

int
pcapint_erspan_file_dlt(pcap_t *p)
{
	return (p->linktype == DLT_ERSPAN ? DLT_EN10MB : p->linktype);
}

int
pcapint_erspan_check(pcap_t *p, const struct pcap_pkthdr *h,
    const u_char *data)
{
	struct pcapint_erspan info;

	if (pcapint_erspan_decap(data, h->caplen, &info) == PCAPINT_ERSPAN_OK)
		return (0);
	p->erspan_malformed++;
	return (-1);
}

int
pcapint_erspan_strip(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	struct pcapint_erspan info;
	int r = pcapint_erspan_decap(*data, h->caplen, &info);

	if (r != PCAPINT_ERSPAN_OK)
		p->erspan_malformed++;
	/* Another session: what the filter, if any, has already refused. */
	if (r != PCAPINT_ERSPAN_OK || (p->erspan_has_session &&
	    (info.type == 1 || info.session != p->erspan_session)))
		return (-1);
	*data += info.inner_off;
	h->len = (bpf_u_int32)info.inner_len;
	h->caplen = (bpf_u_int32)info.inner_caplen;
	/* The filter kept the snapshot length plus the longest header. */
	if (p->snapshot > 0 && h->caplen > (bpf_u_int32)p->snapshot)
		h->caplen = (bpf_u_int32)p->snapshot;
	return (0);
}

/* Rings are made at activation, before ERSPAN mode can be chosen. */
u_int
pcapint_erspan_ring_margin(pcap_t *p)
{
	int i;

	for (i = 0; i < p->dlt_count && p->dlt_list[i] != DLT_ERSPAN; i++)
		continue;
	return (i < p->dlt_count ? PCAPINT_ERSPAN_MAX_OUTER : 0);
}

int
pcap_set_erspan_session(pcap_t *p, int session)
{
	int own = 0;

	if (session > PCAPINT_ERSPAN_MAX_SESSION) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "ERSPAN session ID %d greater than maximum %d",
		    session, PCAPINT_ERSPAN_MAX_SESSION);
		return (PCAP_ERROR);
	}
	/* The mode's own filter follows the session, to keep the rest out. */
	if (p->activated && p->linktype == DLT_ERSPAN &&
	    (own = erspan_empty_filter(p, p->linktype, 0)) == -1)
		return (PCAP_ERROR);
	p->erspan_has_session = session >= 0;
	p->erspan_session = session >= 0 ? (u_int)session : 0;
	return (own && erspan_empty_filter(p, p->linktype, 1) == -1 ?
	    PCAP_ERROR : 0);
}

int
pcap_erspan_stats(pcap_t *p, u_int *malformed)
{
	if (malformed == NULL) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "pcap_erspan_stats: no place to store the count");
		return (PCAP_ERROR);
	}
	*malformed = p->erspan_malformed;
	return (0);
}
