/*
 * fuzz-print -- libFuzzer target: tcpdump's ERSPAN printer
 * (tcpdump/print-erspan.c), reached as tcpdump reaches it, through
 * pretty_print_packet() on an Ethernet frame, so that truncation ends
 * in the printers' longjmp() as it does in tcpdump.
 *
 * The first byte picks the options: bits 0-1 the -v count, bit 2 -e,
 * bit 3 whether the rest is a whole Ethernet frame (0) or the GRE
 * payload of one this target wraps in Ethernet, IPv4 and GRE headers
 * (1).  Wrapping, the second byte picks the GRE protocol (bit 0: type
 * III's 0x22eb, else 0x88be), the GRE sequence number flag (bit 1; it
 * tells type II from type I) and an 802.1Q tag (bit 2), so that the
 * fuzzer spends its executions on the ERSPAN headers rather than on
 * finding its way through IPv4 and GRE.  The output goes through
 * vsnprintf() into a buffer, so that every format and argument is
 * exercised, and is discarded.
 */

#include <config.h>

#include "netdissect-stdinc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdissect.h"
#include "print.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A frame larger than this is cut, as a 65535-byte snaplen would. */
#define FUZZ_PRINT_MAX_FRAME	65535

static int
discard_printf(netdissect_options *ndo _U_, const char *fmt, ...)
{
	static char out[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, sizeof(out), fmt, ap);
	va_end(ap);
	return n;
}

/*
 * Ethernet (with an 802.1Q tag if asked), IPv4 to protocol 47 and GRE
 * (with a sequence number if asked) in front of the payload; returns
 * the length of the headers written to "hdr".
 */
static size_t
outer_headers(u_char *hdr, u_int flags, size_t payload_len)
{
	static const u_char macs[12] = {
		0x02, 0, 0, 0, 0, 0x02,	0x02, 0, 0, 0, 0, 0x01
	};
	size_t n = 0, ip_len;
	u_int gre_len = (flags & 2) ? 8 : 4;

	memcpy(hdr, macs, sizeof(macs));
	n = sizeof(macs);
	if (flags & 4) {
		hdr[n++] = 0x81; hdr[n++] = 0x00;
		hdr[n++] = 0x00; hdr[n++] = 0x2a;	/* VLAN 42 */
	}
	hdr[n++] = 0x08; hdr[n++] = 0x00;
	ip_len = 20 + gre_len + payload_len;
	if (ip_len > 65535)
		ip_len = 65535;
	hdr[n++] = 0x45; hdr[n++] = 0;
	hdr[n++] = (u_char)(ip_len >> 8); hdr[n++] = (u_char)ip_len;
	hdr[n++] = 0; hdr[n++] = 1; hdr[n++] = 0; hdr[n++] = 0;
	hdr[n++] = 64; hdr[n++] = 47; hdr[n++] = 0; hdr[n++] = 0;
	hdr[n++] = 10; hdr[n++] = 0; hdr[n++] = 0; hdr[n++] = 1;
	hdr[n++] = 10; hdr[n++] = 0; hdr[n++] = 0; hdr[n++] = 2;
	hdr[n++] = (flags & 2) ? 0x10 : 0; hdr[n++] = 0;
	if (flags & 1) {
		hdr[n++] = 0x22; hdr[n++] = 0xeb;
	} else {
		hdr[n++] = 0x88; hdr[n++] = 0xbe;
	}
	if (flags & 2) {
		hdr[n++] = 0; hdr[n++] = 0; hdr[n++] = 0; hdr[n++] = 7;
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static netdissect_options ndo;
	static int ready;
	char errbuf[PCAP_ERRBUF_SIZE];
	u_char hdr[64];
	struct pcap_pkthdr h;
	size_t hdr_len = 0, payload_len;
	u_int opts, wrap = 0;
	u_char *frame;

	if (!ready) {
		if (nd_init(errbuf, sizeof(errbuf)) == -1)
			abort();
		memset(&ndo, 0, sizeof(ndo));
		ndo_set_function_pointers(&ndo);
		ndo.ndo_printf = discard_printf;
		ndo.ndo_nflag = 1;	/* never a name lookup */
		ndo.ndo_tflag = 1;	/* no timestamps */
		ndo.ndo_snaplen = FUZZ_PRINT_MAX_FRAME;
		ndo.ndo_if_printer = get_if_printer(DLT_EN10MB);
		init_print(&ndo, 0, 0);
		ready = 1;
	}
	if (size < 2)
		return 0;
	opts = data[0];
	ndo.ndo_vflag = opts & 3;
	ndo.ndo_eflag = (opts >> 2) & 1;
	data++;
	size--;
	if (opts & 8) {
		wrap = data[0];
		data++;
		size--;
		hdr_len = outer_headers(hdr, wrap, size);
	}
	payload_len = size;
	if (hdr_len + payload_len > FUZZ_PRINT_MAX_FRAME)
		payload_len = FUZZ_PRINT_MAX_FRAME - hdr_len;
	if (hdr_len + payload_len == 0)
		return 0;
	/* Exactly the frame's bytes, so that AddressSanitizer sees an overread. */
	frame = malloc(hdr_len + payload_len);
	if (frame == NULL)
		return 0;
	memcpy(frame, hdr, hdr_len);
	if (payload_len != 0)
		memcpy(frame + hdr_len, data, payload_len);
	memset(&h, 0, sizeof(h));
	h.caplen = (bpf_u_int32)(hdr_len + payload_len);
	h.len = h.caplen;
	pretty_print_packet(&ndo, &h, frame, 1);
	free(frame);
	return 0;
}
