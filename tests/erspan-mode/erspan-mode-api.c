/*
 * erspan-mode-api -- check libpcap's ERSPAN mode API offline.
 *
 * usage: erspan-mode-api OUTDIR MIXED.pcap RAW.pcap
 *   MIXED.pcap  an Ethernet savefile of ERSPAN and other frames
 *   RAW.pcap    a savefile of another link-layer type
 *
 * Checks the DLT_ERSPAN name and value, that a dead DLT_ERSPAN handle
 * compiles the ERSPAN program and dumps as LINKTYPE_ETHERNET, the
 * errors of the new functions, and pcap_set_datalink() on savefiles.
 * Then it reads MIXED.pcap in ERSPAN mode with pcap_next_ex() and no
 * filter, and prints
 *	delivered N malformed M
 * for the script to compare with tshark's counts.  Every failed check
 * prints "FAIL: ..." on stderr; the exit status is 1 if any failed.
 */

#define _DEFAULT_SOURCE		/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>
#include <string.h>

#include <pcap/pcap.h>

static int failed;

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failed = 1;
	}
}

/* The link-layer type field of a pcap file header. */
static long
file_linktype(const char *path)
{
	unsigned char hdr[24];
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	if (f == NULL)
		return (-1);
	n = fread(hdr, 1, sizeof(hdr), f);
	fclose(f);
	if (n != sizeof(hdr))
		return (-1);
	/* Written in host byte order; this host is little-endian or not. */
	if (hdr[0] == 0xd4)
		return (hdr[20] | hdr[21] << 8 | (long)hdr[22] << 16);
	return ((long)hdr[21] << 16 | hdr[22] << 8 | hdr[23]);
}

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE], path[4096];
	struct bpf_program prog;
	struct pcap_pkthdr *h;
	const u_char *pkt;
	pcap_dumper_t *d;
	pcap_t *p;
	u_int malformed, delivered = 0, bad_inner = 0;
	int r;

	if (argc != 4) {
		fprintf(stderr, "usage: erspan-mode-api OUTDIR MIXED.pcap RAW.pcap\n");
		return (2);
	}

	/* Names and values. */
	check(DLT_ERSPAN == 35006, "DLT_ERSPAN is the provisional 35006");
	check(pcap_datalink_name_to_val("ERSPAN") == DLT_ERSPAN,
	    "pcap_datalink_name_to_val(\"ERSPAN\")");
	check(pcap_datalink_name_to_val("erspan") == DLT_ERSPAN,
	    "pcap_datalink_name_to_val(\"erspan\")");
	check(pcap_datalink_val_to_name(DLT_ERSPAN) != NULL &&
	    strcmp(pcap_datalink_val_to_name(DLT_ERSPAN), "ERSPAN") == 0,
	    "pcap_datalink_val_to_name(DLT_ERSPAN)");

	/* A dead handle: program, snapshot, dump file link type. */
	p = pcap_open_dead(DLT_ERSPAN, 1000);
	check(p != NULL, "pcap_open_dead(DLT_ERSPAN)");
	if (p == NULL)
		return (1);
	check(pcap_datalink(p) == DLT_ERSPAN, "pcap_datalink() of it");
	check(pcap_snapshot(p) == 1000, "pcap_snapshot() is the user's");
	r = pcap_compile(p, &prog, "", 1, PCAP_NETMASK_UNKNOWN);
	check(r == 0, "empty filter compiles");
	if (r == 0) {
		check(prog.bf_len > 100, "empty filter is the ERSPAN test");
		check(prog.bf_len >= 2 &&
		    prog.bf_insns[prog.bf_len - 2].code == (BPF_RET|BPF_K) &&
		    prog.bf_insns[prog.bf_len - 2].k == 1000 + 118 &&
		    prog.bf_insns[prog.bf_len - 1].k == 0,
		    "accept value is snaplen + 118");
		pcap_freecode(&prog);
	}
	check(pcap_set_erspan_session(p, 1024) == PCAP_ERROR &&
	    strstr(pcap_geterr(p), "1024 greater than maximum 1023") != NULL,
	    "pcap_set_erspan_session(1024) fails");
	check(pcap_set_erspan_session(p, 1023) == 0,
	    "pcap_set_erspan_session(1023)");
	check(pcap_set_erspan_session(p, -1) == 0,
	    "pcap_set_erspan_session(-1)");
	check(pcap_erspan_stats(p, NULL) == PCAP_ERROR,
	    "pcap_erspan_stats(p, NULL) fails");
	check(pcap_erspan_stats(p, &malformed) == 0 && malformed == 0,
	    "pcap_erspan_stats() of a new handle is 0");
	/* A dead handle has no DLT list and is no savefile. */
	check(pcap_set_datalink(p, DLT_EN10MB) == PCAP_ERROR,
	    "a dead DLT_ERSPAN handle cannot switch to EN10MB");
	snprintf(path, sizeof(path), "%s/dead.pcap", argv[1]);
	d = pcap_dump_open(p, path);
	check(d != NULL, "pcap_dump_open() of a DLT_ERSPAN handle");
	if (d != NULL)
		pcap_dump_close(d);
	check(file_linktype(path) == 1, "its file says LINKTYPE_ETHERNET");
	pcap_close(p);

	/* A savefile of another link-layer type cannot switch. */
	p = pcap_open_offline(argv[3], errbuf);
	check(p != NULL, "open RAW.pcap");
	if (p != NULL) {
		check(pcap_set_datalink(p, DLT_ERSPAN) == PCAP_ERROR &&
		    strstr(pcap_geterr(p), "ERSPAN is not one of the DLTs") != NULL,
		    "a non-Ethernet savefile refuses DLT_ERSPAN");
		pcap_close(p);
	}

	/* An Ethernet savefile switches there and back. */
	p = pcap_open_offline(argv[2], errbuf);
	check(p != NULL, "open MIXED.pcap");
	if (p == NULL)
		return (1);
	check(pcap_set_datalink(p, DLT_ERSPAN) == 0 &&
	    pcap_datalink(p) == DLT_ERSPAN, "savefile EN10MB -> ERSPAN");
	check(pcap_set_datalink(p, DLT_EN10MB) == 0 &&
	    pcap_datalink(p) == DLT_EN10MB, "savefile ERSPAN -> EN10MB");
	check(pcap_set_datalink(p, DLT_DOCSIS) == PCAP_ERROR,
	    "savefile EN10MB -> DOCSIS still fails");
	check(pcap_set_datalink(p, DLT_ERSPAN) == 0, "savefile -> ERSPAN again");

	/* No filter at all: only inner frames come out, the rest counted. */
	while ((r = pcap_next_ex(p, &h, &pkt)) == 1) {
		delivered++;
		/*
		 * Crafted inner frames start with MAC 02:00:5e:20:00:02;
		 * two variants were cut within it by their snaplen.
		 */
		if (h->caplen > h->len || h->len < 14 ||
		    h->caplen > (bpf_u_int32)pcap_snapshot(p) ||
		    memcmp(pkt, "\x02\x00\x5e\x20\x00\x02",
		    h->caplen < 6 ? h->caplen : 6) != 0)
			bad_inner++;
	}
	check(r == PCAP_ERROR_BREAK, "pcap_next_ex() reaches the end");
	check(bad_inner == 0, "every frame delivered is an inner frame");
	check(pcap_erspan_stats(p, &malformed) == 0, "pcap_erspan_stats()");
	printf("delivered %u malformed %u\n", delivered, malformed);
	pcap_close(p);
	return (failed);
}
