/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
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
 * that reach user space (no filter set yet, or the filter could not be
 * put in the kernel); in a savefile, all of them, since every record
 * is checked before the filter runs.
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "pcap-int.h"
#include "pcap-erspan.h"

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
	if (session > PCAPINT_ERSPAN_MAX_SESSION) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "ERSPAN session ID %d greater than maximum %d",
		    session, PCAPINT_ERSPAN_MAX_SESSION);
		return (PCAP_ERROR);
	}
	if (session < 0) {
		p->erspan_has_session = 0;
		p->erspan_session = 0;
	} else {
		p->erspan_has_session = 1;
		p->erspan_session = (u_int)session;
	}
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
