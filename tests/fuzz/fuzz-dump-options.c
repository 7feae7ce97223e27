/*
 * fuzz-dump-options -- libFuzzer target: the compressed dumper's option
 * parsers, which take what users type after tcpdump's --compress
 * ("zstd:-5", "gzip:9", ...) and block and ring sizes.
 *
 * Input: the first 8 bytes are a block size and a ring size (4 bytes
 * each, little-endian), the rest a compression spec.  Every call must
 * either succeed or fail with a message in errbuf.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "fuzz-common.h"

#define	FUZZ_MAX_SPEC	256

static uint32_t
le32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

/* A failed call must say why. */
static void
check(int r, const char *errbuf)
{
	if (r != 0 && errbuf[0] == '\0')
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char errbuf[PCAP_ERRBUF_SIZE], spec[FUZZ_MAX_SPEC + 1];
	pcap_dump_options_t *o;
	size_t n;

	if (size < 8)
		return (0);
	n = size - 8 > FUZZ_MAX_SPEC ? FUZZ_MAX_SPEC : size - 8;
	memcpy(spec, data + 8, n);
	spec[n] = '\0';

	errbuf[0] = '\0';
	o = pcap_dump_options_create(errbuf);
	if (o == NULL)
		return (0);
	errbuf[0] = '\0';
	check(pcap_dump_options_set_compression(o, spec, errbuf), errbuf);
	errbuf[0] = '\0';
	check(pcap_dump_options_set_block_size(o, le32(data), errbuf), errbuf);
	errbuf[0] = '\0';
	check(pcap_dump_options_set_writer_thread(o, le32(data + 4), errbuf),
	    errbuf);
	pcap_dump_options_free(o);
	return (0);
}
