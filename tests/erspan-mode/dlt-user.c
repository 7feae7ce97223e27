/*
 * dlt-user -- what libpcap does with a user link-layer type, printed so
 * that the same program run against stock libpcap and against ours can
 * be compared line by line.
 *
 * usage: dlt-user write FILE DLT	write a savefile of DLT (3 records)
 *        dlt-user report FILE DLT	print how FILE reads, and how a
 *					dead handle of DLT dumps and
 *					compiles filters
 *
 * DLT_USER0 to DLT_USER15 belong to users: whatever a library adds, a
 * savefile, a dead handle and the filters of such a type must behave
 * exactly as they always have.
 */

#define _DEFAULT_SOURCE		/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

static const char *filters[] = {
	"", "ether host 01:02:03:04:05:06", "ip", "link[0] = 1"
};

/* Three records of 60 bytes, each filled with its number. */
static int
write_file(const char *path, int dlt)
{
	struct pcap_pkthdr h;
	u_char data[60];
	pcap_dumper_t *d;
	pcap_t *p;
	int i;

	p = pcap_open_dead(dlt, 65535);
	if (p == NULL)
		return (1);
	d = pcap_dump_open(p, path);
	if (d == NULL) {
		fprintf(stderr, "pcap_dump_open: %s\n", pcap_geterr(p));
		return (1);
	}
	for (i = 1; i <= 3; i++) {
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = 1000 + i;
		h.caplen = h.len = sizeof(data);
		memset(data, i, sizeof(data));
		pcap_dump((u_char *)d, &h, data);
	}
	pcap_dump_close(d);
	pcap_close(p);
	return (0);
}

/* The link-layer type field of a pcap file header, in host order. */
static long
file_linktype(const char *path)
{
	unsigned char hdr[24];
	uint32_t v;
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	if (f == NULL)
		return (-1);
	n = fread(hdr, 1, sizeof(hdr), f);
	fclose(f);
	if (n != sizeof(hdr))
		return (-1);
	memcpy(&v, hdr + 20, sizeof(v));
	return ((long)v);
}

static int
report(const char *path, int dlt)
{
	char errbuf[PCAP_ERRBUF_SIZE], dump[4096];
	struct bpf_program prog;
	struct pcap_pkthdr *h;
	const u_char *pkt;
	const char *name;
	pcap_t *p;
	size_t i;
	int n, r;

	/* The savefile, read to its end. */
	p = pcap_open_offline(path, errbuf);
	if (p == NULL) {
		printf("open: %s\n", errbuf);
		return (1);
	}
	printf("savefile datalink %d\n", pcap_datalink(p));
	n = 0;
	while ((r = pcap_next_ex(p, &h, &pkt)) == 1)
		printf("record %d caplen %u len %u first byte %u\n", ++n,
		    h->caplen, h->len, h->caplen > 0 ? pkt[0] : 0);
	printf("savefile end %d (%s), %d records\n", r,
	    r == PCAP_ERROR ? pcap_geterr(p) : "clean", n);
	pcap_close(p);

	/* Names. */
	name = pcap_datalink_val_to_name(dlt);
	printf("name %s\n", name != NULL ? name : "(none)");

	/* A dead handle: what it dumps as, and what filters compile to. */
	p = pcap_open_dead(dlt, 65535);
	if (p == NULL)
		return (1);
	printf("dead datalink %d snapshot %d\n", pcap_datalink(p),
	    pcap_snapshot(p));
	snprintf(dump, sizeof(dump), "%s.dead", path);
	if (write_file(dump, dlt) == 0)
		printf("dead dump linktype %ld\n", file_linktype(dump));
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		if (pcap_compile(p, &prog, filters[i], 1,
		    PCAP_NETMASK_UNKNOWN) == 0) {
			printf("filter \"%s\": %u instructions\n", filters[i],
			    prog.bf_len);
			pcap_freecode(&prog);
		} else
			printf("filter \"%s\": %s\n", filters[i],
			    pcap_geterr(p));
	}
	pcap_close(p);
	return (0);
}

int
main(int argc, char **argv)
{
	int dlt;

	if (argc != 4) {
		fprintf(stderr, "usage: dlt-user write|report FILE DLT\n");
		return (2);
	}
	dlt = atoi(argv[3]);
	if (strcmp(argv[1], "write") == 0)
		return (write_file(argv[2], dlt));
	if (strcmp(argv[1], "report") == 0)
		return (report(argv[2], dlt));
	fprintf(stderr, "dlt-user: unknown command %s\n", argv[1]);
	return (2);
}
