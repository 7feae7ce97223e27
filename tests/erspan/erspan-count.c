/*
 * erspan-count -- count the packets of a savefile that a filter
 * matches, through pcap_compile() and pcap_offline_filter(), and
 * optionally write the ERSPAN-decapsulated frames to a new savefile.
 *
 * usage: erspan-count [-O] [-l] [-d OUT.pcap] FILE.pcap [FILTER]
 *   -O           compile without the optimizer
 *   -l           first, a line for every packet: 1 or 0 for whether the
 *                filter matches it, then the ERSPAN session ID if
 *                pcapint_erspan_decap() accepts it ("-" for type I, which
 *                has none), or "no" if it does not
 *   -d OUT.pcap  write the inner frame of every matching packet that
 *                pcapint_erspan_decap() accepts to OUT.pcap (Ethernet)
 * Prints the number of matching packets (and, with -d, a second line
 * with the number of frames written).  Exits 1 on any error.
 */

#define _DEFAULT_SOURCE		/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "pcap-erspan.h"

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	const char *out_name = NULL, *expr = "";
	struct bpf_program prog;
	struct pcap_pkthdr *h, ih;
	struct pcapint_erspan e;
	const u_char *pkt;
	pcap_t *p, *dead = NULL;
	pcap_dumper_t *d = NULL;
	unsigned long matched = 0, written = 0;
	int opt = 1, list = 0, c, r, match;

	while ((c = getopt(argc, argv, "Old:")) != -1) {
		switch (c) {
		case 'O':
			opt = 0;
			break;
		case 'l':
			list = 1;
			break;
		case 'd':
			out_name = optarg;
			break;
		default:
			return (1);
		}
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr,
		    "usage: erspan-count [-O] [-l] [-d OUT.pcap] FILE.pcap [FILTER]\n");
		return (1);
	}
	if (argc - optind == 2)
		expr = argv[optind + 1];

	p = pcap_open_offline(argv[optind], errbuf);
	if (p == NULL) {
		fprintf(stderr, "erspan-count: %s\n", errbuf);
		return (1);
	}
	if (pcap_compile(p, &prog, expr, opt, PCAP_NETMASK_UNKNOWN) != 0) {
		fprintf(stderr, "erspan-count: %s\n", pcap_geterr(p));
		return (1);
	}
	if (out_name != NULL) {
		dead = pcap_open_dead(DLT_EN10MB, pcap_snapshot(p));
		d = dead != NULL ? pcap_dump_open(dead, out_name) : NULL;
		if (d == NULL) {
			fprintf(stderr, "erspan-count: cannot write %s\n",
			    out_name);
			return (1);
		}
	}
	while ((r = pcap_next_ex(p, &h, &pkt)) == 1) {
		match = pcap_offline_filter(&prog, h, pkt) != 0;
		if (list) {
			if (pcapint_erspan_decap(pkt, h->caplen, &e) != PCAPINT_ERSPAN_OK)
				printf("%d no\n", match);
			else if (e.type == 1)
				printf("%d -\n", match);
			else
				printf("%d %u\n", match, e.session);
		}
		if (!match)
			continue;
		matched++;
		if (d == NULL ||
		    pcapint_erspan_decap(pkt, h->caplen, &e) != PCAPINT_ERSPAN_OK)
			continue;
		ih.ts = h->ts;
		ih.caplen = (bpf_u_int32)e.inner_caplen;
		ih.len = (bpf_u_int32)e.inner_len;
		pcap_dump((u_char *)d, &ih, pkt + e.inner_off);
		written++;
	}
	if (r == -1) {
		fprintf(stderr, "erspan-count: %s\n", pcap_geterr(p));
		return (1);
	}
	printf("%lu\n", matched);
	if (d != NULL) {
		if (pcap_dump_flush(d) != 0) {
			fprintf(stderr, "erspan-count: write error\n");
			return (1);
		}
		pcap_dump_close(d);
		pcap_close(dead);
		printf("%lu\n", written);
	}
	pcap_freecode(&prog);
	pcap_close(p);
	return (0);
}
