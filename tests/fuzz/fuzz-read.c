/*
 * fuzz-read -- libFuzzer target: the savefile reader, given any bytes.
 *
 * The input is opened with pcap_fopen_offline() and read with
 * pcap_next_ex() to its end, as every pcap program reads a capture, so
 * the compressed-container detection, each decompressing stream, and
 * the pcap and pcapng readers behind them all see hostile input.
 */

#define _GNU_SOURCE		/* fmemopen() */

#include <stdio.h>
#include <stdint.h>

#include <pcap/pcap.h>

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_capture(data, size);
	return (0);
}
