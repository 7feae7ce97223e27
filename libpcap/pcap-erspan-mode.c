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
 */

/*
 * ERSPAN mode: a handle whose link-layer type is DLT_ERSPAN delivers
 * the Ethernet frames mirrored in ERSPAN instead of the frames that
 * carry them.
 *
 * The capture filter is compiled for the outer frames (gencode.c puts
 * the "erspan" test in front of the user's expression and relocates
 * the expression to the inner frame), so it runs unchanged in the
 * kernel, in the userland fallback and on savefile records; only what
 * passed it is stripped here, with the same rules (pcap-erspan.c).
 *
 * Frames that are not ERSPAN, or that the decapsulator refuses, are
 * dropped and counted (pcap_erspan_stats()): on a live capture, those
 * that reach user space, which only a program compiled for another
 * link-layer type lets through; in a savefile, all of them, since
 * every record is checked before the filter runs.
 *
 * A live handle never waits for the application's filter to keep the
 * rest out of the kernel's copy: selecting the mode attaches the
 * program of an empty expression, which admits ERSPAN only
 * (pcapint_erspan_set_mode()).
 */

#include <config.h>

#include <string.h>

#include "pcap-int.h"
#include "pcap-erspan.h"

/*
 * Whether the filter in place is the program ERSPAN mode attaches by
 * itself, that of an empty expression for the handle's current
 * link-layer type and session: 1 if so, 0 if not (or if there is no
 * filter), -1 on an error.  Comparing the programs, rather than
 * remembering who set the filter, needs no hook in pcap_setfilter(),
 * and an application that set an empty filter itself means the same.
 */
static int
erspan_own_filter(pcap_t *p)
{
	struct bpf_program prog;
	int same;

	if (p->fcode.bf_insns == NULL)
		return (0);
	if (pcap_compile(p, &prog, "", 1, PCAP_NETMASK_UNKNOWN) == -1)
		return (-1);
	same = prog.bf_len == p->fcode.bf_len &&
	    memcmp(prog.bf_insns, p->fcode.bf_insns,
	    prog.bf_len * sizeof(*prog.bf_insns)) == 0;
	pcap_freecode(&prog);
	return (same);
}

/*
 * Put the program of an empty expression for the handle's current
 * link-layer type in place.  In ERSPAN mode it admits ERSPAN only.
 */
static int
erspan_set_empty_filter(pcap_t *p)
{
	struct bpf_program prog;
	int status;

	if (pcap_compile(p, &prog, "", 1, PCAP_NETMASK_UNKNOWN) == -1)
		return (-1);
	status = pcap_setfilter(p, &prog);
	pcap_freecode(&prog);
	return (status);
}

/*
 * Called by a capture module that can filter in the kernel when the
 * application switches the link-layer type of a live handle to "dlt",
 * before the module records the new type.  Returns 0, or -1 with the
 * error in p->errbuf and the handle left as it was.
 */
int
pcapint_erspan_set_mode(pcap_t *p, int dlt)
{
	int old = p->linktype;
	int own;

	if (dlt == old)
		return (0);

	if (dlt == DLT_ERSPAN) {
		/*
		 * Until the application sets a filter, if it ever does,
		 * the kernel would copy every frame on the device to
		 * user space only for it to be dropped here.  A filter
		 * set before was compiled for the outer frames and
		 * would let other traffic in; it is replaced too.
		 */
		p->linktype = DLT_ERSPAN;
		if (erspan_set_empty_filter(p) == -1) {
			p->linktype = old;
			return (-1);
		}
		return (0);
	}
	if (old != DLT_ERSPAN)
		return (0);

	/*
	 * Leaving the mode: the program it attached would go on keeping
	 * only ERSPAN, so it gives way to an empty filter for the new
	 * type.  A filter the application set stays, as on any change
	 * of link-layer type.
	 */
	own = erspan_own_filter(p);
	if (own <= 0)
		return (own);
	p->linktype = dlt;
	if (erspan_set_empty_filter(p) == -1) {
		p->linktype = old;
		return (-1);
	}
	return (0);
}

int
pcapint_erspan_check_file_linktype(int dlt, char *errbuf)
{
	if (dlt != DLT_ERSPAN)
		return (0);

	/*
	 * No LINKTYPE_ has this value, and ERSPAN mode writes its files
	 * as LINKTYPE_ETHERNET; read as DLT_ERSPAN, such a file would be
	 * decapsulated without anybody asking for it.
	 */
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

	if (pcapint_erspan_decap(data, h->caplen, &info) !=
	    PCAPINT_ERSPAN_OK) {
		p->erspan_malformed++;
		return (-1);
	}
	return (0);
}

int
pcapint_erspan_strip(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	struct pcapint_erspan info;

	if (pcapint_erspan_decap(*data, h->caplen, &info) !=
	    PCAPINT_ERSPAN_OK) {
		p->erspan_malformed++;
		return (-1);
	}

	/*
	 * Another session: the filter, when there is one, has already
	 * rejected it; this is the same choice without one.
	 */
	if (p->erspan_has_session &&
	    (info.type == 1 || info.session != p->erspan_session))
		return (-1);

	*data += info.inner_off;
	h->len = (bpf_u_int32)info.inner_len;
	h->caplen = (bpf_u_int32)info.inner_caplen;

	/*
	 * The filter accepted up to the snapshot length plus the longest
	 * outer header, so that the snapshot length applies to the inner
	 * frame; cut what the shorter outer header of this frame left.
	 */
	if (p->snapshot > 0 && h->caplen > (bpf_u_int32)p->snapshot)
		h->caplen = (bpf_u_int32)p->snapshot;
	return (0);
}

/*
 * The extra room a ring slot needs for the outer headers, if the handle
 * can be switched to ERSPAN mode.  Rings are made when the handle is
 * activated, before the application can choose DLT_ERSPAN.
 */
u_int
pcapint_erspan_ring_margin(pcap_t *p)
{
	int i;

	for (i = 0; i < p->dlt_count; i++) {
		if (p->dlt_list[i] == DLT_ERSPAN)
			return (PCAPINT_ERSPAN_MAX_OUTER);
	}
	return (0);
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

	/*
	 * The program the mode attached by itself follows the session,
	 * so that other sessions stay in the kernel too.
	 */
	if (p->activated && p->linktype == DLT_ERSPAN) {
		own = erspan_own_filter(p);
		if (own == -1)
			return (PCAP_ERROR);
	}
	if (session < 0) {
		p->erspan_has_session = 0;
		p->erspan_session = 0;
	} else {
		p->erspan_has_session = 1;
		p->erspan_session = (u_int)session;
	}
	if (own && erspan_set_empty_filter(p) == -1)
		return (PCAP_ERROR);
	return (0);
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
