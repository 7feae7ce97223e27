/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * no-atomics: against a libpcap built without the __atomic builtins
 * (t-no-atomics.sh) or without fopencookie() (t-no-fopencookie.sh), the
 * dumper options API exists, refuses compressed writing in one
 * sentence, opens the plain dumper when given no options, plain
 * savefiles still work, and the savefile given as the argument is
 * read.  Prints what it saw.
 */

#include <stdio.h>
#include <pcap/pcap.h>

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;
	pcap_dumper_t *d;
	pcap_t *p;
	struct pcap_pkthdr *h;
	const u_char *data;
	int n;

	o = pcap_dump_options_create(errbuf);
	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (o == NULL || p == NULL) {
		printf("setup failed\n");
		return (1);
	}
	if (pcap_dump_options_set_compression(o, "zstd", errbuf) != 0)
		printf("set_compression: %s\n", errbuf);
	d = pcap_dump_open_with_options(p, "/dev/null", o);
	printf("open_with_options: %s\n", d == NULL ? pcap_geterr(p) : "opened");
	/* No options: the plain dumper, as where compression works. */
	d = pcap_dump_open_with_options(p, "/dev/null", NULL);
	printf("open_with_options, no options: %s\n",
	    d != NULL ? "opened" : pcap_geterr(p));
	if (d != NULL)
		pcap_dump_close(d);
	d = pcap_dump_open(p, "/dev/null");
	printf("pcap_dump_open: %s\n", d != NULL ? "opened" : pcap_geterr(p));
	if (d != NULL)
		pcap_dump_close(d);
	printf("pcap_dump_close_async_wait: %d\n", pcap_dump_close_async_wait(0));
	pcap_dump_options_free(o);
	pcap_close(p);
	if (argc < 2)
		return (0);
	p = pcap_open_offline(argv[1], errbuf);
	if (p == NULL) {
		printf("pcap_open_offline: %s\n", errbuf);
		return (0);
	}
	for (n = 0; pcap_next_ex(p, &h, &data) == 1; n++)
		continue;
	printf("read: %d packets\n", n);
	pcap_close(p);
	return (0);
}
