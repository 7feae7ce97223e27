/*
 * pcap-lengths -- print each record's captured and original length as
 * libpcap delivers them, then how the read ended.
 *
 * usage: pcap-lengths FILE
 *
 * libpcap corrects some lengths while reading (pcapint_post_process()),
 * so these are the figures after that, which a test can compare.
 */

#define _DEFAULT_SOURCE		/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>

#include <pcap/pcap.h>

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: pcap-lengths FILE\n");
		return (2);
	}
	p = pcap_open_offline(argv[1], errbuf);
	if (p == NULL) {
		fprintf(stderr, "pcap-lengths: %s\n", errbuf);
		return (1);
	}
	while ((r = pcap_next_ex(p, &h, &data)) == 1)
		printf("caplen %u len %u\n", h->caplen, h->len);
	if (r == PCAP_ERROR) {
		fprintf(stderr, "pcap-lengths: %s\n", pcap_geterr(p));
		pcap_close(p);
		return (1);
	}
	pcap_close(p);
	return (0);
}
