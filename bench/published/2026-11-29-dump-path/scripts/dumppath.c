/*
 * dumppath -- what pcap_dump() costs per record, counted with callgrind,
 * while other dumpers with options are open in the same process.
 *
 *	dumppath IN.pcap OUTDIR OTHERS plain|none|zstd [first]
 *
 * Opens OTHERS dumpers with zstd options (files OUTDIR/other-N, never
 * written), then the measured dumper, OUTDIR/measured (with "first",
 * the measured dumper before the others): plain is
 * pcap_dump_open(), none and zstd are pcap_dump_open_with_options()
 * with that compression.  Every record of IN.pcap goes to the measured
 * dumper with pcap_dump().
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE], path[4096];
	pcap_dumper_t *others[64], *d;
	pcap_dump_options_t *o;
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int n, i, r, first;
	long records = 0;

	if ((argc != 5 && argc != 6) || (n = atoi(argv[3])) < 0 || n > 64) {
		fprintf(stderr, "usage: dumppath IN.pcap OUTDIR OTHERS(0-64) plain|none|zstd\n");
		return (2);
	}
	if ((p = pcap_open_offline(argv[1], errbuf)) == NULL) {
		fprintf(stderr, "dumppath: %s\n", errbuf);
		return (1);
	}
	if ((o = pcap_dump_options_create(errbuf)) == NULL ||
	    pcap_dump_options_set_compression(o, "zstd", errbuf) != 0) {
		fprintf(stderr, "dumppath: %s\n", errbuf);
		return (1);
	}
	first = argc == 6 && strcmp(argv[5], "first") == 0;
	for (i = 0; i < n && !first; i++) {
		snprintf(path, sizeof(path), "%s/other-%d", argv[2], i);
		if ((others[i] = pcap_dump_open_with_options(p, path, o)) == NULL) {
			fprintf(stderr, "dumppath: %s\n", pcap_geterr(p));
			return (1);
		}
	}
	snprintf(path, sizeof(path), "%s/measured", argv[2]);
	if (strcmp(argv[4], "plain") == 0)
		d = pcap_dump_open(p, path);
	else {
		if (pcap_dump_options_set_compression(o, argv[4], errbuf) != 0) {
			fprintf(stderr, "dumppath: %s\n", errbuf);
			return (1);
		}
		d = pcap_dump_open_with_options(p, path, o);
	}
	if (d == NULL) {
		fprintf(stderr, "dumppath: %s\n", pcap_geterr(p));
		return (1);
	}
	if (first && pcap_dump_options_set_compression(o, "zstd", errbuf) != 0)
		return (1);
	for (i = 0; i < n && first; i++) {
		snprintf(path, sizeof(path), "%s/other-%d", argv[2], i);
		if ((others[i] = pcap_dump_open_with_options(p, path, o)) == NULL) {
			fprintf(stderr, "dumppath: %s\n", pcap_geterr(p));
			return (1);
		}
	}
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		pcap_dump((u_char *)d, h, data);
		records++;
	}
	pcap_dump_close(d);
	for (i = 0; i < n; i++)
		pcap_dump_close(others[i]);
	pcap_dump_options_free(o);
	pcap_close(p);
	printf("records: %ld\n", records);
	return (r == PCAP_ERROR_BREAK ? 0 : 1);
}
