/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A filter naming a host that pcap_ether_hostton() resolves must not
 * leak the address it returns when the filter then fails to compile
 * ("ether ra host NAME" on Ethernet, where "ra" needs 802.11 headers):
 * libpcap 1.10.5 freed it only on success (fixed in libpcap 1.10.6).
 * Run under valgrind or LeakSanitizer, with NAME in /etc/ethers.
 *
 * usage: ether-hostton NAME
 * Prints TAP-like lines; exits non-zero on failure.
 */

#include <stdio.h>

#include <pcap/pcap.h>

#include "../lib-tap.h"

int
main(int argc, char **argv)
{
	struct bpf_program prog;
	char expr[128];
	pcap_t *p;
	int i, refused;

	if (argc != 2)
		return (2);
	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL)
		return (2);
	snprintf(expr, sizeof(expr), "ether host %s", argv[1]);
	check(pcap_compile(p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) == 0,
	    "\"%s\" compiles: %s", expr, pcap_geterr(p));
	pcap_freecode(&prog);
	snprintf(expr, sizeof(expr), "ether ra host %s", argv[1]);
	refused = 0;
	for (i = 0; i < 10; i++)
		refused += pcap_compile(p, &prog, expr, 1,
		    PCAP_NETMASK_UNKNOWN) == -1;
	check(refused == 10, "\"%s\" is refused, 10 times of 10: %s", expr,
	    pcap_geterr(p));
	pcap_close(p);
	return (tap_end());
}
