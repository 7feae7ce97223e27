/*
 * fuzz-common.h -- what the fuzz targets share: reading a capture held in
 * memory to its end, with bounds that keep one input cheap.
 */

#ifndef fuzz_common_h
#define	fuzz_common_h

#include <stdio.h>
#include <stdint.h>

#include <pcap/pcap.h>

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * At most this many records of one input are read: a small input can
 * describe a long capture (a compressed one especially), and the point
 * is to reach every parser state, not to spend seconds on one input.
 */
#define	FUZZ_MAX_RECORDS	4096

/*
 * Open the bytes as a savefile and read every record, touching each
 * byte of it so that a wrong caplen is caught by AddressSanitizer;
 * returns the number of records read.
 */
static inline int
fuzz_read_capture(const uint8_t *data, size_t size)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *pkt;
	volatile u_char sum;
	pcap_t *p;
	FILE *fp;
	int n, r;
	bpf_u_int32 i;

	if (size == 0)
		return (0);
	fp = fmemopen((void *)data, size, "rb");
	if (fp == NULL)
		return (0);
	p = pcap_fopen_offline(fp, errbuf);
	if (p == NULL) {
		fclose(fp);
		return (0);
	}
	n = 0;
	sum = 0;
	while (n < FUZZ_MAX_RECORDS &&
	    (r = pcap_next_ex(p, &h, &pkt)) == 1) {
		for (i = 0; i < h->caplen; i++)
			sum ^= pkt[i];
		n++;
	}
	(void)sum;
	pcap_close(p);		/* closes fp */
	return (n);
}

#endif
