/*
 * fuzz-compress-read -- libFuzzer target: the decompressing reader fed
 * valid containers around hostile captures.
 *
 * Compressed bytes straight from the fuzzer rarely get past a codec's
 * checksums, so the reader's own logic behind them (unit boundaries,
 * the hand-over to the pcap and pcapng readers, truncation) is barely
 * reached.  Here the fuzzer gives an uncompressed capture and control
 * bytes; the capture is cut into units, each unit is compressed into
 * one frame (zstd, LZ4) or member (gzip) as our writer and the
 * command-line tools make them, the result is cut short, and the
 * reader reads it to its end.
 *
 * Input: byte 0 chooses the container, byte 1 the unit size (64 bytes
 * to 128 KiB), bytes 2-3 how many bytes to cut off the end; the rest
 * is the capture.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include "fuzz-common.h"

enum { C_ZSTD, C_LZ4, C_GZIP, C_COUNT };

/* Compress one unit into out (at least bound bytes); returns its length. */
static size_t
compress_unit(int codec, const uint8_t *in, size_t len, uint8_t *out,
    size_t bound)
{
	z_stream zs;
	size_t n;

	switch (codec) {

	case C_ZSTD:
		n = ZSTD_compress(out, bound, in, len, 1);
		return (ZSTD_isError(n) ? 0 : n);

	case C_LZ4:
		n = LZ4F_compressFrame(out, bound, in, len, NULL);
		return (LZ4F_isError(n) ? 0 : n);

	default:
		memset(&zs, 0, sizeof(zs));
		/* 15 + 16: a gzip member, as gzip and our writer make. */
		if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			return (0);
		zs.next_in = (Bytef *)in;
		zs.avail_in = (uInt)len;
		zs.next_out = out;
		zs.avail_out = (uInt)bound;
		n = deflate(&zs, Z_FINISH) == Z_STREAM_END ? zs.total_out : 0;
		deflateEnd(&zs);
		return (n);
	}
}

static size_t
unit_bound(int codec, size_t len)
{
	switch (codec) {

	case C_ZSTD:
		return (ZSTD_compressBound(len));

	case C_LZ4:
		return (LZ4F_compressFrameBound(len, NULL));

	default:
		return (compressBound((uLong)len) + 64);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cap;
	size_t caplen, unit, off, len, bound, total, cut;
	uint8_t *out;
	int codec;

	if (size < 4)
		return (0);
	codec = data[0] % C_COUNT;
	unit = (size_t)64 << (data[1] % 12);
	cut = (size_t)data[2] << 8 | data[3];
	cap = data + 4;
	caplen = size - 4;

	bound = 0;
	for (off = 0; off < caplen; off += len) {
		len = caplen - off < unit ? caplen - off : unit;
		bound += unit_bound(codec, len);
	}
	out = malloc(bound + 1);
	if (out == NULL)
		return (0);
	total = 0;
	for (off = 0; off < caplen; off += len) {
		len = caplen - off < unit ? caplen - off : unit;
		total += compress_unit(codec, cap + off, len, out + total,
		    bound - total);
	}
	if (cut < total)
		total -= cut;
	fuzz_read_capture(out, total);
	free(out);
	return (0);
}
