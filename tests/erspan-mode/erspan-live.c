/*
 * erspan-live -- capture in ERSPAN mode without ever setting a filter,
 * as an application that never calls pcap_setfilter() does.
 *
 * usage: erspan-live IFACE OUT.pcap COUNT SECONDS
 *
 * Opens IFACE in non-blocking mode (libpcap 1.10 keeps polling after
 * a timeout), switches it to DLT_ERSPAN, prints "ready" on stderr,
 * then writes every frame it is given to OUT.pcap until COUNT frames
 * were delivered and nothing more arrived for one second, or SECONDS
 * have passed.  Then it prints
 *	delivered N malformed M
 * (M from pcap_erspan_stats()).  Exit status 0, or 1 on an error.
 */

#define _DEFAULT_SOURCE		/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <pcap/pcap.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *pkt;
	pcap_dumper_t *d;
	pcap_t *p;
	u_int delivered = 0, malformed = 0, want;
	struct timespec pause = { 0, 10000000 };	/* 10 ms */
	double start, last;
	int r, secs;

	if (argc != 5) {
		fprintf(stderr, "usage: erspan-live IFACE OUT.pcap COUNT SECONDS\n");
		return (1);
	}
	want = (u_int)strtoul(argv[3], NULL, 10);
	secs = atoi(argv[4]);

	p = pcap_create(argv[1], errbuf);
	if (p == NULL) {
		fprintf(stderr, "erspan-live: %s\n", errbuf);
		return (1);
	}
	if (pcap_set_timeout(p, 100) != 0 || pcap_activate(p) < 0 ||
	    pcap_setnonblock(p, 1, errbuf) != 0 ||
	    pcap_set_datalink(p, DLT_ERSPAN) != 0) {
		fprintf(stderr, "erspan-live: %s\n", pcap_geterr(p));
		return (1);
	}
	d = pcap_dump_open(p, argv[2]);
	if (d == NULL) {
		fprintf(stderr, "erspan-live: %s\n", pcap_geterr(p));
		return (1);
	}
	fprintf(stderr, "ready\n");

	start = last = now();
	while (now() - start < secs) {
		r = pcap_next_ex(p, &h, &pkt);
		if (r < 0) {
			fprintf(stderr, "erspan-live: %s\n", pcap_geterr(p));
			return (1);
		}
		if (r == 1) {
			pcap_dump((u_char *)d, h, pkt);
			delivered++;
			last = now();
		} else if (delivered >= want && now() - last > 1.0)
			break;
		else
			nanosleep(&pause, NULL);
	}
	pcap_dump_close(d);
	if (pcap_erspan_stats(p, &malformed) != 0) {
		fprintf(stderr, "erspan-live: %s\n", pcap_geterr(p));
		return (1);
	}
	printf("delivered %u malformed %u\n", delivered, malformed);
	pcap_close(p);
	return (0);
}
