/*
 * erspan-live -- capture in ERSPAN mode as an application that may
 * never call pcap_setfilter() does.
 *
 * usage: erspan-live [-b DLT] [-e SESSION] [-f FILTER] IFACE OUT.pcap COUNT SECONDS
 *
 * Opens IFACE in non-blocking mode (libpcap 1.10 keeps polling after
 * a timeout), switches it to DLT_ERSPAN and then:
 *	-e SESSION	calls pcap_set_erspan_session(SESSION);
 *	-f FILTER	compiles FILTER (which may be empty) and sets it;
 *	-b DLT		switches to DLT (EN10MB or DOCSIS: the capture is
 *			then an ordinary one);
 * prints "ready" on stderr, then writes every frame it is given to
 * OUT.pcap until COUNT frames were delivered and nothing more arrived
 * for one second, or SECONDS have passed.  Then it prints
 *	delivered N malformed M recv R
 * (M from pcap_erspan_stats(), R is ps_recv from pcap_stats(): on
 * Linux the frames that passed the kernel filter).  Exit status 0, or
 * 1 on an error.
 */

#define _DEFAULT_SOURCE		/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void
usage(void)
{
	fprintf(stderr, "usage: erspan-live [-b DLT] [-e SESSION] [-f FILTER] "
	    "IFACE OUT.pcap COUNT SECONDS\n");
	exit(1);
}

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct bpf_program prog;
	struct pcap_pkthdr *h;
	struct pcap_stat st;
	const u_char *pkt;
	pcap_dumper_t *d;
	pcap_t *p;
	u_int delivered = 0, malformed = 0, want;
	struct timespec pause = { 0, 10000000 };	/* 10 ms */
	double start, last;
	const char *filter = NULL;
	int r, secs, ch, back = -1, session = -1;

	while ((ch = getopt(argc, argv, "b:e:f:")) != -1) {
		switch (ch) {
		case 'b':
			back = pcap_datalink_name_to_val(optarg);
			if (back < 0)
				usage();
			break;
		case 'e':
			session = atoi(optarg);
			break;
		case 'f':
			filter = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 4)
		usage();
	want = (u_int)strtoul(argv[2], NULL, 10);
	secs = atoi(argv[3]);

	p = pcap_create(argv[0], errbuf);
	if (p == NULL) {
		fprintf(stderr, "erspan-live: %s\n", errbuf);
		return (1);
	}
	if (pcap_set_timeout(p, 100) != 0 || pcap_activate(p) < 0 ||
	    pcap_setnonblock(p, 1, errbuf) != 0 ||
	    pcap_set_datalink(p, DLT_ERSPAN) != 0 ||
	    (session >= 0 && pcap_set_erspan_session(p, session) != 0) ||
	    (filter != NULL &&
	    (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0 ||
	    pcap_setfilter(p, &prog) != 0)) ||
	    (back >= 0 && pcap_set_datalink(p, back) != 0)) {
		fprintf(stderr, "erspan-live: %s\n", pcap_geterr(p));
		return (1);
	}
	if (filter != NULL)
		pcap_freecode(&prog);
	d = pcap_dump_open(p, argv[1]);
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
	if (pcap_erspan_stats(p, &malformed) != 0 || pcap_stats(p, &st) != 0) {
		fprintf(stderr, "erspan-live: %s\n", pcap_geterr(p));
		return (1);
	}
	printf("delivered %u malformed %u recv %u\n", delivered, malformed,
	    st.ps_recv);
	pcap_close(p);
	return (0);
}
