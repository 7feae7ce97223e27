/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * "ip multicast" matches IPv4 multicast, 224.0.0.0/4, and nothing else;
 * libpcap 1.10.5 compiled it as "first octet >= 224", which also
 * matched the reserved 240.0.0.0/4 and the limited broadcast address
 * (fixed in libpcap 1.10.6).  Each destination is tried in an Ethernet
 * frame through the compiled filter.
 *
 * usage: ip-multicast
 * Prints TAP-like lines; exits non-zero on failure.
 */

#include <string.h>

#include <pcap/pcap.h>

#include "../lib-tap.h"

static const struct {
	u_char	dst[4];
	int	multicast;
} cases[] = {
	{ { 224, 0, 0, 1 }, 1 },
	{ { 239, 255, 255, 250 }, 1 },
	{ { 232, 1, 2, 3 }, 1 },
	{ { 223, 255, 255, 255 }, 0 },
	{ { 240, 0, 0, 1 }, 0 },
	{ { 255, 255, 255, 255 }, 0 },
	{ { 10, 0, 0, 1 }, 0 },
};

int
main(void)
{
	struct bpf_program prog;
	struct pcap_pkthdr h;
	u_char frame[14 + 20];
	pcap_t *p;
	size_t i;
	int got;

	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL ||
	    pcap_compile(p, &prog, "ip multicast", 1, PCAP_NETMASK_UNKNOWN) != 0)
		return (2);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(frame, 0, sizeof(frame));
		frame[12] = 0x08;		/* IPv4 */
		frame[14] = 0x45;
		frame[14 + 9] = 17;		/* UDP */
		memcpy(frame + 14 + 12, "\x0a\x00\x00\x02", 4);
		memcpy(frame + 14 + 16, cases[i].dst, 4);
		memset(&h, 0, sizeof(h));
		h.caplen = h.len = sizeof(frame);
		got = pcap_offline_filter(&prog, &h, frame) != 0;
		check(got == cases[i].multicast, "%u.%u.%u.%u %s \"ip multicast\"",
		    cases[i].dst[0], cases[i].dst[1], cases[i].dst[2],
		    cases[i].dst[3], cases[i].multicast ? "matches" :
		    "does not match");
	}
	pcap_freecode(&prog);
	pcap_close(p);
	return (tap_end());
}
