/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Capture a number of messages from the D-Bus session bus, then close.
 * libpcap 1.10.5 never released a message it had captured (fixed in
 * libpcap 1.10.6); run under valgrind, every message leaked shows as
 * memory lost through dbus_read().  Prints "ready" once it listens, so
 * that the messages are sent only then.
 *
 * usage: dbus-capture COUNT
 */

#include <stdio.h>
#include <stdlib.h>

#include <pcap/pcap.h>

static int captured;

static void
count(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	(void)user;
	(void)h;
	(void)data;
	captured++;
}

int
main(int argc, char **argv)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	int want;

	if (argc != 2 || (want = atoi(argv[1])) <= 0)
		return (2);
	p = pcap_create("dbus-session", ebuf);
	if (p == NULL) {
		fprintf(stderr, "dbus-capture: %s\n", ebuf);
		return (2);
	}
	if (pcap_activate(p) < 0) {
		fprintf(stderr, "dbus-capture: %s\n", pcap_geterr(p));
		return (2);
	}
	printf("ready\n");
	fflush(stdout);
	while (captured < want) {
		if (pcap_dispatch(p, 1, count, NULL) < 0) {
			fprintf(stderr, "dbus-capture: %s\n", pcap_geterr(p));
			break;
		}
	}
	pcap_close(p);
	printf("captured %d\n", captured);
	return (captured >= want ? 0 : 1);
}
