/*
 * fuzz-erspan -- libFuzzer target: the ERSPAN decapsulator
 * (pcapint_erspan_decap(), libpcap/pcap-erspan.c), which parses every
 * frame of an ERSPAN-mode capture, on any bytes as an outer Ethernet
 * frame.  Besides what the sanitizers catch, a frame it accepts must
 * describe an inner frame inside the captured bytes, and every refusal
 * must be one of the reasons pcap-erspan.h lists.
 */

#include <stdint.h>
#include <stdlib.h>

#include "pcap-erspan.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcapint_erspan info;
	int r;

	r = pcapint_erspan_decap(data, size, &info);
	if (r < PCAPINT_ERSPAN_OK || r > PCAPINT_ERSPAN_TRUNCATED)
		abort();
	if (r == PCAPINT_ERSPAN_OK &&
	    (info.inner_off > size || info.inner_caplen > size - info.inner_off ||
	    info.inner_len < info.inner_caplen || info.session > 1023 ||
	    info.type < 1 || info.type > 3))
		abort();
	return (0);
}
