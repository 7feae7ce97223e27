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
 * tcpdump --erspan[=SESSION]: libpcap's ERSPAN mode (the DLT_ERSPAN
 * link-layer type) filters and delivers the Ethernet frames mirrored
 * in ERSPAN instead of the frames that carry them, on a live interface
 * (where the filter runs in the kernel) or from a savefile.
 *
 * tcpdump.c only calls in here: when it parses the option, after it
 * opens each handle, and when it prints its statistics.  tcpdump's own
 * -y handling selects the mode on a live interface, since the option
 * stands for "-y ERSPAN"; a session, and the mode on a savefile, are
 * set here.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "netdissect-stdinc.h"

#include <pcap.h>

#include "netdissect.h"
#include "erspan-capture.h"

#ifdef HAVE_PCAP_ERSPAN_STATS

#define ERSPAN_MAX_SESSION	1023	/* 10-bit session ID */

static int erspan_flag;			/* --erspan was given */
static int erspan_session = -1;		/* -1: every session */

/*
 * -y with another type would select it instead of ERSPAN mode, in
 * whichever order the two options come.
 */
static void
erspan_check_dlt(int yflag_dlt, erspan_fail_fn fail)
{
	const char *name;

	if (yflag_dlt == -1 || yflag_dlt == DLT_ERSPAN)
		return;
	name = pcap_datalink_val_to_name(yflag_dlt);
	fail("--erspan and -y %s are mutually exclusive.",
	    name != NULL ? name : "(unknown)");
}

int
erspan_option(const char *arg, int yflag_dlt, erspan_fail_fn fail)
{
	char *end;
	long v;

	erspan_check_dlt(yflag_dlt, fail);
	erspan_flag = 1;
	if (arg != NULL) {
		v = strtol(arg, &end, 10);
		if (end == arg || *end != '\0' || v < 0 ||
		    v > ERSPAN_MAX_SESSION)
			fail("invalid ERSPAN session \"%s\" (0-%d)", arg,
			    ERSPAN_MAX_SESSION);
		erspan_session = (int)v;
	}
	return DLT_ERSPAN;
}

void
erspan_open(pcap_t *p, int yflag_dlt, erspan_fail_fn fail)
{
	if (!erspan_flag)
		return;
	erspan_check_dlt(yflag_dlt, fail);

	/*
	 * A savefile is read in the mode after switching to it; a live
	 * handle is in it already (-y).  The session goes into the
	 * filter compiled next.
	 */
	if ((pcap_datalink(p) != DLT_ERSPAN &&
	    pcap_set_datalink(p, DLT_ERSPAN) < 0) ||
	    pcap_set_erspan_session(p, erspan_session) < 0)
		fail("--erspan: %s", pcap_geterr(p));
}

void
erspan_print_stats(pcap_t *p)
{
	u_int skipped;

	if (pcap_datalink(p) != DLT_ERSPAN ||
	    pcap_erspan_stats(p, &skipped) != 0)
		return;
	/*
	 * A savefile read in full says nothing more, as tcpdump prints no
	 * statistics for one; a live capture reports the figure with its
	 * other statistics, whatever it is.
	 */
	if (pcap_file(p) != NULL && skipped == 0)
		return;
	fprintf(stderr, "%u packet%s skipped as not ERSPAN\n",
	    skipped, PLURAL_SUFFIX(skipped));
}

#else /* HAVE_PCAP_ERSPAN_STATS */

/*
 * The libpcap tcpdump was built with has no ERSPAN mode: the option is
 * known, so that the user learns why it does not work, and refused.
 */
int
erspan_option(const char *arg _U_, int yflag_dlt _U_, erspan_fail_fn fail)
{
	fail("--erspan: this tcpdump's libpcap has no ERSPAN mode");
	return (-1);
}

void
erspan_open(pcap_t *p _U_, int yflag_dlt _U_, erspan_fail_fn fail _U_)
{
}

void
erspan_print_stats(pcap_t *p _U_)
{
}

#endif /* HAVE_PCAP_ERSPAN_STATS */
