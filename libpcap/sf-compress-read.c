/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *
 *   1. Redistributions of source code must retain the above copyright
 *      notice, this list of conditions and the following disclaimer.
 *   2. Redistributions in binary form must reproduce the above copyright
 *      notice, this list of conditions and the following disclaimer in the
 *      documentation and/or other materials provided with the distribution.
 *   3. Neither the name of the copyright holders nor the names of its
 *      contributors may be used to endorse or promote products derived
 *      from this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
 * ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
 * LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
 * A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
 * OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
 * SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
 * LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 *
 * Compressed savefiles: reading them back.
 * pcapint_compressed_check_header(), first in savefile.c's
 * check_headers[], recognises a container by its magic number, wraps
 * the raw FILE in a decompressing fopencookie() stream and runs the
 * pcap and pcapng checks on that, so that pcap_open_offline() and
 * everything after it read compressed files with no change, stdin and
 * pipes included.  It reads what other tools compressed as well (gzip
 * capture.pcap; tcpdump -r capture.pcap.gz).  The stream reads and
 * seeks as the file would, and reading goes on past a damaged unit
 * where the file can seek.
 *
 * The reader is one file, as upstream lays out a subsystem (sf-pcapng.c
 * is one format in one file): what no other file calls is static, and
 * each section uses only those before it:
 *
 *	the table of containers, and how a file's container is
 *	    recognised;
 *	the raw input that the decoders read through, and the read loop
 *	    that the decoders of streaming libraries share;
 *	where the records of the decompressed stream end;
 *	seek tables at the end of zstd savefiles;
 *	the state of one reader, and what it knows of its units;
 *	reading past a damaged unit;
 *	reading the decompressed stream;
 *	seeking in it;
 *	opening the stream, the check_headers[] entry.
 *
 * Only the containers' codecs are files of their own, one per codec
 * library and built only when it is found: sf-compress-zlib.c (gzip),
 * sf-compress-lz4.c (LZ4 frames) and sf-compress-zstd.c (zstd frames).
 * sf-compress.h is the interface between them and this file, and
 * declares the table and the check_headers[] entry for savefile.c and
 * the writer.
 *
 * A decompressing stream needs fopencookie() (glibc, musl, FreeBSD 11
 * and later) or funopen() (macOS and the other BSDs): configure (and
 * CMake) define SFC_COOKIE_OFF_T, the offset type of its seek
 * function, only where one is found.  Without either, all that is
 * built here is the table and a check_headers[] entry that
 * recognises compressed files and refuses them by name, rather than as
 * "unknown file format"; that part uses nothing beyond C99 and pcap.h
 * (no ssize_t, which MSVC lacks).
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "pcap-int.h"
#ifdef SFC_COOKIE_OFF_T
#include "extract.h"
#include "sf-pcap.h"
#include "sf-pcapng.h"
#endif
#include "sf-compress.h"

/*
 * The table of containers (name, magic number, decoder), and how a
 * file's container is recognised.
 */

#ifdef HAVE_ZLIB
#define	SFC_GZIP_DECODER	(&pcapint_sfc_gzip_decoder)
#else
#define	SFC_GZIP_DECODER	NULL
#endif
#ifdef HAVE_LIBLZ4
#define	SFC_LZ4_DECODER	(&pcapint_sfc_lz4_decoder)
#else
#define	SFC_LZ4_DECODER	NULL
#endif
#ifdef HAVE_LIBZSTD
#define	SFC_ZSTD_DECODER	(&pcapint_sfc_zstd_decoder)
#else
#define	SFC_ZSTD_DECODER	NULL
#endif
#ifdef SFC_LZOP_CONTAINER
#ifdef HAVE_LIBLZO2
#define	SFC_LZO_DECODER	(&pcapint_sfc_lzo_decoder)
#else
#define	SFC_LZO_DECODER	NULL
#endif
#endif

/*
 * gzip's magic includes the compression method byte (8, deflate), as
 * gzip(1) checks it; the others are 4 bytes.  "none" is a plain
 * savefile, which sf-pcap.c reads, so it has neither magic nor decoder
 * here.
 */
const struct pcapint_sfc_container pcapint_sfc_containers[SFC_NCONTAINERS] = {
	[SFC_STORE] = { "none", { 0 }, 0, NULL },
	[SFC_ZSTD] = { "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, SFC_ZSTD_DECODER },
	[SFC_LZ4] = { "lz4", { 0x04, 0x22, 0x4d, 0x18 }, 4, SFC_LZ4_DECODER },
	[SFC_GZIP] = { "gzip", { 0x1f, 0x8b, 0x08 }, 3, SFC_GZIP_DECODER },
#ifdef SFC_LZOP_CONTAINER
	/* lzop's signature is 9 bytes; its first 4 tell it from the rest. */
	[SFC_LZO] = { "lzo",
	    { 0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a }, 9,
	    SFC_LZO_DECODER },
#endif
};

/*
 * The container whose magic the first SFC_MAGIC_CHECK bytes of a file
 * start with, or NULL.
 */
static const struct pcapint_sfc_container *
sfc_container_by_magic(const uint8_t *magic)
{
	const struct pcapint_sfc_container *c;
	u_int i, len;

	for (i = 0; i < SFC_NCONTAINERS; i++) {
		c = &pcapint_sfc_containers[i];
		len = c->magic_len < SFC_MAGIC_CHECK ? c->magic_len :
		    SFC_MAGIC_CHECK;
		if (len != 0 && memcmp(magic, c->magic, len) == 0)
			return (c);
	}
	return (NULL);
}

/*
 * The refusal of a container this build cannot read; returns NULL, for
 * the check_headers[] entry to return.
 */
static pcap_t *
sfc_cannot_read(const struct pcapint_sfc_container *c, char *errbuf,
    int *err)
{
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "the file is %s compressed, which this build of libpcap cannot read",
	    c->name);
	*err = 1;
	return (NULL);
}

#ifdef SFC_COOKIE_OFF_T

/*
 * The raw input of a reader, which the containers' decoders read
 * through (see struct pcapint_sfc_input in sf-compress.h), and the
 * read loop that the decoders of streaming libraries share.
 */

/*
 * Refill the input buffer, keeping the unconsumed bytes, with at most
 * want more bytes; returns the number of bytes now available, 0 at end
 * of file, -1 on a read error.  fread() on a pipe waits until it has
 * all it asked for, so decoders ask for what their container says
 * comes next, not for a buffer's worth: a reader at the end of a pipe
 * then gets every complete block without waiting for the next one.
 */
static int
sfc_fill(struct pcapint_sfc_input *in, size_t want)
{
	size_t keep, n;

	if (in->ioerr != 0)
		return (-1);
	keep = in->len - in->pos;
	if (keep != 0 && in->pos != 0)
		memmove(in->buf, in->buf + in->pos, keep);
	in->off += (int64_t)in->pos;
	in->pos = 0;
	in->len = keep;
	if (in->eof || keep == in->size)
		return ((int)keep);
	if (want == 0)
		want = 1;
	if (want > in->size - keep)
		want = in->size - keep;
	n = fread(in->buf + keep, 1, want, in->raw);
	if (n == 0) {
		if (ferror(in->raw)) {
			in->ioerr = errno != 0 ? errno : EIO;
			return (-1);
		}
		in->eof = 1;
	}
	in->len += n;
	return ((int)in->len);
}
#ifdef SFC_LZOP_CONTAINER

ptrdiff_t
pcapint_sfc_read(struct pcapint_sfc_input *in, void *dst, size_t n)
{
	u_char *d = dst;
	size_t got, k;
	int r;

	got = 0;
	while (got < n) {
		if (in->pos == in->len) {
			r = sfc_fill(in, n - got);
			if (r < 0)
				return (-1);
			if (r == 0)
				break;
		}
		k = in->len - in->pos;
		if (k > n - got)
			k = n - got;
		memcpy(d + got, in->buf + in->pos, k);
		in->pos += k;
		got += k;
	}
	return ((ptrdiff_t)got);
}
#endif

/*
 * The read loop of a streaming decoder: feed the library what it asks
 * for, unit by unit, until it produces something or a unit ends.  The
 * library's hint never reaches beyond the end of the current unit, so
 * a reader at the end of a pipe gets each whole block as soon as it is
 * written; at a unit's start we ask for the little that says how long
 * its header is.  End of input between units is the clean end of the
 * stream, inside one it is a truncated file.  The state starts with a
 * struct pcapint_sfc_stream.
 */
ptrdiff_t
pcapint_sfc_stream_read(void *state, struct pcapint_sfc_input *in,
    u_char *buf, size_t size, int64_t *unit_off, int *unit_done,
    char *errbuf)
{
	struct pcapint_sfc_stream *s = state;
	size_t srclen, dstlen;
	int r;

	*unit_done = 0;
	for (;;) {
		if (in->pos == in->len) {
			r = sfc_fill(in, s->in_unit ? s->hint :
			    s->first_read);
			if (r < 0)
				return (SFC_DEC_IOERR);
			if (r == 0) {
				*unit_off = s->unit_off;
				return (s->in_unit ? SFC_DEC_TRUNCATED : 0);
			}
		}
		if (!s->in_unit && s->zero_padding && in->buf[in->pos] == 0) {
			/*
			 * Zero bytes where a unit would start, as tape and
			 * block devices pad a file, end the stream if
			 * nothing else follows them (gzip -d ignores them
			 * so); anything else after them starts a unit,
			 * which the decoder then finds damaged.
			 */
			while (in->pos < in->len && in->buf[in->pos] == 0)
				in->pos++;
			continue;
		}
		if (!s->in_unit) {
			s->unit_off = SFC_INPUT_OFFSET(in);
			if (s->begin != NULL && (*s->begin)(state, errbuf) != 0)
				return (SFC_DEC_CORRUPT);
			s->in_unit = 1;
		}
		*unit_off = s->unit_off;
		srclen = in->len - in->pos;
		dstlen = size;
		r = (*s->step)(state, in->buf + in->pos, &srclen, buf, &dstlen,
		    &s->hint, errbuf);
		in->pos += srclen;
		if (r < 0)
			return (SFC_DEC_CORRUPT);
		if (r == 1) {
			/* Stop here, even with no output: a unit ends. */
			s->in_unit = 0;
			*unit_done = 1;
			return ((ptrdiff_t)dstlen);
		}
		if (dstlen != 0)
			return ((ptrdiff_t)dstlen);
	}
}

/*
 * Where the records of the decompressed stream end.  Reading on past a
 * damaged unit (below) is right only where units end at records, as
 * the blocks of a program that compresses a capture block by block do;
 * a file compressed in arbitrary parts (split(1), a tool that cuts its
 * frames by size) has records that straddle units, and the unit after
 * a skipped one would start inside a record.  So each unit held whole
 * is walked, record header by record header, and the walk says whether
 * it ended exactly at the end of a record.  Only the record lengths are
 * read, of records already in memory.
 */

#define	SFC_RECORDS_UNKNOWN	0
#define	SFC_RECORDS_PCAP	1
#define	SFC_RECORDS_PCAPNG	2

struct sfc_records {
	int	aligned;	/* every unit walked ended at a record's end */
	int	format;		/* SFC_RECORDS_*, learned from the file header */
	int	big_endian;	/* the byte order of the lengths */
};

#define	SFC_PCAP_FILE_HDR_LEN	24	/* struct pcap_file_header */
#define	SFC_PCAP_REC_HDR_LEN	16	/* struct pcap_sf_pkthdr */
#define	SFC_PCAPNG_SHB		0x0A0D0D0AU	/* the same in both orders */
#define	SFC_PCAPNG_BOM		0x1A2B3C4DU

static uint32_t
sfc_u32(const u_char *p, int big_endian)
{
	if (big_endian)
		return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
	return ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | (uint32_t)p[0]);
}

/* Before the first unit: nothing walked, nothing misaligned yet. */
static void
sfc_records_init(struct sfc_records *w)
{
	w->aligned = 1;
	w->format = SFC_RECORDS_UNKNOWN;
	w->big_endian = 0;
}

/*
 * The file header at the start of the stream: a pcap header, in either
 * byte order, with microsecond or nanosecond time stamps, or a pcapng
 * section header block, which the walk reads as one of its blocks.  Any
 * other format is not walked.  Returns the header's length, or 0.
 */
static size_t
sfc_records_file_header(struct sfc_records *w, const u_char *buf,
    size_t len)
{
	uint32_t magic;

	if (len < 4)
		return (0);
	magic = sfc_u32(buf, 1);
	switch (magic) {

	case 0xA1B2C3D4U:	/* microseconds, big-endian */
	case 0xA1B23C4DU:	/* nanoseconds */
		w->format = SFC_RECORDS_PCAP;
		w->big_endian = 1;
		return (SFC_PCAP_FILE_HDR_LEN);

	case 0xD4C3B2A1U:	/* the same, little-endian */
	case 0x4D3CB2A1U:
		w->format = SFC_RECORDS_PCAP;
		w->big_endian = 0;
		return (SFC_PCAP_FILE_HDR_LEN);

	case SFC_PCAPNG_SHB:
		w->format = SFC_RECORDS_PCAPNG;
		return (0);	/* the walk reads the block */
	}
	w->aligned = 0;
	return (0);
}

/*
 * Walk one unit held whole, of len bytes at offset uoff of the stream;
 * a unit after the first starts at a record, as long as every unit
 * walked so far ended at one.  Returns whether that is still so.
 */
static int
sfc_records_walk(struct sfc_records *w, const u_char *buf, size_t len,
    int64_t uoff)
{
	uint64_t pos = 0, reclen;

	if (!w->aligned)
		return (0);
	if (uoff == 0)
		pos = sfc_records_file_header(w, buf, len);
	if (w->format == SFC_RECORDS_UNKNOWN) {
		w->aligned = 0;
		return (0);
	}
	while (w->aligned && pos < len) {
		if (w->format == SFC_RECORDS_PCAP) {
			if (len - pos < SFC_PCAP_REC_HDR_LEN) {
				w->aligned = 0;
				break;
			}
			/* caplen, after the two time stamp words */
			reclen = SFC_PCAP_REC_HDR_LEN +
			    (uint64_t)sfc_u32(buf + pos + 8, w->big_endian);
		} else {
			/* block type, block total length, and a section's
			 * byte-order magic */
			if (len - pos < 12) {
				w->aligned = 0;
				break;
			}
			if (sfc_u32(buf + pos, 1) == SFC_PCAPNG_SHB) {
				if (sfc_u32(buf + pos + 8, 1) == SFC_PCAPNG_BOM)
					w->big_endian = 1;
				else if (sfc_u32(buf + pos + 8, 0) ==
				    SFC_PCAPNG_BOM)
					w->big_endian = 0;
				else
					w->aligned = 0;
			}
			reclen = sfc_u32(buf + pos + 4, w->big_endian);
			if (reclen < 12 || reclen % 4 != 0)
				w->aligned = 0;
		}
		pos += reclen;
	}
	if (pos != len)
		w->aligned = 0;
	return (w->aligned);
}

/* A unit went by unwalked (too large to hold): nothing is known. */
static void
sfc_records_lost(struct sfc_records *w)
{
	w->aligned = 0;
}

/*
 * Seek tables at the end of zstd savefiles, which the reader uses to
 * seek without decompressing.
 *
 * Finding the end of a compressed savefile, or the block that holds an
 * offset the reader has not yet passed, otherwise means decompressing
 * everything before it: a program that seeks to the end of a capture
 * first, as tcpslice does, decompresses the whole file once.  A file in
 * the zstd project's "seekable format" (contrib/seekable_format in the
 * zstd sources, written by its seekable API and by tools such as t2sz)
 * ends with a table of each frame's compressed and uncompressed size,
 * in a skippable frame:
 *
 *	magic 0x184D2A5E, frame size		4 + 4 bytes, little-endian
 *	per frame: compressed size, uncompressed size[, checksum]  4 + 4 [+ 4]
 *	number of frames, descriptor, magic 0x8F92EAB1	4 + 1 + 4
 *
 * The table is used only if it adds up to the file's size exactly;
 * otherwise the file is read as if it had none.
 */

/* A unit (block, frame) starts at coff in the file and uoff uncompressed. */
struct sfc_unit_start {
	int64_t	coff;
	int64_t	uoff;
};

#define	SEEKTABLE_SKIPPABLE_MAGIC	0x184D2A5EU
#define	SEEKTABLE_FOOTER_MAGIC		0x8F92EAB1U
#define	SEEKTABLE_FRAME_HDR		8	/* magic, frame size */
#define	SEEKTABLE_ENTRY			8	/* two sizes */
#define	SEEKTABLE_ENTRY_CHECKSUM	12	/* ... and a checksum */
#define	SEEKTABLE_FOOTER		9
#define	SEEKTABLE_CHECKSUM_FLAG		0x80
#define	SEEKTABLE_RESERVED_BITS		0x7C
#define	SEEKTABLE_MAX			(64 * 1024 * 1024)

static int
sfc_seektable_read_at(FILE *raw, int64_t off, void *buf, size_t len)
{
	if (fseeko(raw, (off_t)off, SEEK_SET) != 0)
		return (-1);
	return (fread(buf, 1, len, raw) == len ? 0 : -1);
}

/*
 * The table of the stream that starts at base in raw and takes size
 * bytes from there, checked against that size; -1 if it does not fit.
 */
static int
sfc_seektable_load(FILE *raw, int64_t base, int64_t size,
    struct sfc_unit_start **res, size_t *nres, int64_t *end_uoff)
{
	struct sfc_unit_start *u;
	u_char foot[SEEKTABLE_FOOTER], hdr[SEEKTABLE_FRAME_HDR];
	u_char *t;
	uint32_t n, esize;
	int64_t tlen, coff, uoff;
	size_t i;

	if (size < SEEKTABLE_FRAME_HDR + SEEKTABLE_FOOTER ||
	    sfc_seektable_read_at(raw, base + size - SEEKTABLE_FOOTER, foot,
	    sizeof(foot)) != 0 ||
	    EXTRACT_LE_U_4(foot + 5) != SEEKTABLE_FOOTER_MAGIC ||
	    (foot[4] & SEEKTABLE_RESERVED_BITS) != 0)
		return (-1);
	n = EXTRACT_LE_U_4(foot);
	esize = (foot[4] & SEEKTABLE_CHECKSUM_FLAG) ?
	    SEEKTABLE_ENTRY_CHECKSUM : SEEKTABLE_ENTRY;
	/* Every block takes at least a byte: n is bounded by the size. */
	tlen = (int64_t)n * esize + SEEKTABLE_FOOTER;
	if (n == 0 || tlen + SEEKTABLE_FRAME_HDR + (int64_t)n > size ||
	    sfc_seektable_read_at(raw, base + size - tlen - SEEKTABLE_FRAME_HDR,
	    hdr, sizeof(hdr)) != 0 ||
	    EXTRACT_LE_U_4(hdr) != SEEKTABLE_SKIPPABLE_MAGIC ||
	    EXTRACT_LE_U_4(hdr + 4) != (uint64_t)tlen)
		return (-1);
	/*
	 * A larger table, of millions of blocks, is not used: the file
	 * is read from its start instead.  That keeps the sizes taken
	 * from the file within any size_t.
	 */
	if (tlen > SEEKTABLE_MAX)
		return (-1);
	t = malloc((size_t)tlen);
	u = malloc(((size_t)n + 1) * sizeof(*u));
	if (t == NULL || u == NULL ||
	    sfc_seektable_read_at(raw, base + size - tlen, t,
	    (size_t)tlen) != 0) {
		free(t);
		free(u);
		return (-1);
	}
	coff = uoff = 0;
	for (i = 0; i < n; i++) {
		u[i].coff = coff;
		u[i].uoff = uoff;
		/* The compressed sizes are bounded by the file's size. */
		coff += EXTRACT_LE_U_4(t + i * esize);
		if (coff > size || uoff > INT64_MAX - UINT32_MAX) {
			free(t);
			free(u);
			return (-1);
		}
		uoff += EXTRACT_LE_U_4(t + i * esize + 4);
	}
	free(t);
	/* The blocks and the table make up the file, exactly. */
	if (coff + SEEKTABLE_FRAME_HDR + tlen != size) {
		free(u);
		return (-1);
	}
	/* The table starts a unit of its own, of no data. */
	u[n].coff = coff;
	u[n].uoff = uoff;
	*res = u;
	*nres = (size_t)n + 1;
	*end_uoff = uoff;
	return (0);
}

/*
 * If the compressed stream that starts at offset base of the
 * seekable file raw ends with a seek table that agrees with its size,
 * return where every unit starts (offsets from base; the first at 0) in
 * a malloc()ed array of *nres, and the uncompressed length in
 * *end_uoff; 0 on success, -1 if there is no usable table.  raw's
 * position is left where it was.
 */
static int
sfc_seektable_read(FILE *raw, int64_t base, struct sfc_unit_start **res,
    size_t *nres, int64_t *end_uoff)
{
	off_t here, size;
	int ret;

	here = ftello(raw);
	if (here < 0 || fseeko(raw, 0, SEEK_END) != 0)
		return (-1);
	size = ftello(raw);
	ret = size < base ? -1 :
	    sfc_seektable_load(raw, base, (int64_t)size - base, res, nres, end_uoff);
	if (fseeko(raw, here, SEEK_SET) != 0) {
		if (ret == 0)
			free(*res);
		return (-1);
	}
	return (ret);
}

/*
 * The state of one reader, which the decompressing read, reading past
 * damage, seeking and the opener below share, and what it knows of its
 * units: where each starts, and how to start reading again at one.
 */
struct sfc_reader {
	FILE	*fp;		/* the cookie stream, p->rfile */
	next_packet_op_t next_packet_op;	/* the pcap or pcapng reader's */
	const struct pcapint_sfc_decoder *ops;	/* the container's decoder */
	const char *name;	/* the container's, for messages */
	void	*dec;
	struct pcapint_sfc_input in;
	int	owns_raw;	/* close raw when the stream is closed */
	u_char	*hold;		/* one decompressed unit */
	size_t	hold_size;
	size_t	hold_len;
	size_t	hold_pos;
	int	streaming;	/* unit too large to hold: pass through */
	int	err;		/* sticky: every later read fails */
	int	truncated;	/* err is the file ending inside a unit */
	int64_t	unit_off;
	char	errmsg[PCAP_ERRBUF_SIZE];

	/* Seeking; offsets in the uncompressed stream are "uoff". */
	int64_t	upos;		/* uoff of the next byte handed out */
	int64_t	hold_uoff;	/* uoff of hold[0] */
	int	seekable;	/* raw file: 1 seeks, -1 cannot, 0 not asked */
	int64_t	raw_base;	/* where in raw the compressed stream starts */
	int	past_end;	/* a seek went past the end: reads give 0 */
	int64_t	end_uoff;	/* the length of the stream, once known */
	int	table_tried;	/* looked for a seek table */
	int	table_used;	/* units[] is a seek table's */
	int64_t	hold_coff;	/* where the unit at hold_uoff starts */
	struct sfc_unit_start *units;	/* unit starts, ascending */
	size_t	nunits;
	size_t	units_size;

	/* Damaged units skipped, see sfc_skip_damaged(). */
	struct sfc_records records;	/* where records end */
	int	resumed;	/* the unit being read follows a skipped one */
	int64_t	damaged;	/* how many */
	int64_t	damaged_last;	/* raw offset of the last one */
	char	damage[PCAP_ERRBUF_SIZE];	/* what the first one was */
};

/*
 * Whether the raw file can seek (a file, not a pipe); asked once.
 */
static int
sfc_raw_seekable(struct sfc_reader *r)
{
	off_t here;

	if (r->seekable == 0) {
		here = ftello(r->in.raw);
		r->seekable = r->raw_base >= 0 && here >= 0 &&
		    fseeko(r->in.raw, here, SEEK_SET) == 0 ? 1 : -1;
	}
	return (r->seekable > 0);
}

/*
 * The unit that starts at coff in the compressed file was read whole,
 * from start to end in the stream: 0, or -1 with the sticky error set
 * when a seek table said otherwise.
 *
 * A seek table's offsets are trusted to seek without decompressing; so
 * each unit read whole is held against its entry, and a table that
 * disagrees with what the unit held makes the read fail rather than
 * let a seek land at the wrong place.  Only the units read can be
 * checked: a seek trusts the sizes of the units it skips.
 */
static int
sfc_check_unit(struct sfc_reader *r, int64_t coff, int64_t start,
    int64_t end)
{
	size_t lo, hi, mid;

	if (!r->table_used)
		return (0);
	lo = 0;
	hi = r->nunits;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->units[mid].coff < coff)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The last entry is the table itself, a unit of no data. */
	if (lo < r->nunits && r->units[lo].coff == coff &&
	    r->units[lo].uoff == start &&
	    end == (lo + 1 < r->nunits ? r->units[lo + 1].uoff : start))
		return (0);
	r->err = EBADMSG;
	snprintf(r->errmsg, sizeof(r->errmsg),
	    "corrupt %s compressed file: its seek table does not match the block at byte offset %lld",
	    r->name, (long long)coff);
	errno = r->err;
	return (-1);
}

/*
 * A unit starts at coff in the compressed file and uoff in the stream.
 * Units are met in order, again after a seek backwards, so a unit past
 * the last one noted is new.  Without memory for the note, a seek
 * starts from an earlier unit.
 */
static void
sfc_note_unit(struct sfc_reader *r, int64_t coff, int64_t uoff)
{
	struct sfc_unit_start *nu;
	size_t nsize;

	if (!r->ops->dec_units_independent ||
	    coff <= r->units[r->nunits - 1].coff)
		return;
	if (r->nunits == r->units_size) {
		nsize = 2 * r->units_size;
		nu = realloc(r->units, nsize * sizeof(*nu));
		if (nu == NULL)
			return;
		r->units = nu;
		r->units_size = nsize;
	}
	r->units[r->nunits].coff = coff;
	r->units[r->nunits].uoff = uoff;
	r->nunits++;
}

/*
 * Start reading again at a unit start: the compressed file seeks there
 * and a new decoder begins.  0, or -1 with errno set.
 */
static int
sfc_restart_at(struct sfc_reader *r, const struct sfc_unit_start *u)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	void *dec;

	if (fseeko(r->in.raw, (off_t)(r->raw_base + u->coff), SEEK_SET) != 0)
		return (-1);
	dec = r->ops->dec_create(ebuf);
	if (dec == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	r->ops->dec_free(r->dec);
	r->dec = dec;
	r->in.pos = r->in.len = 0;
	r->in.off = u->coff;
	r->in.eof = 0;
	r->in.ioerr = 0;
	r->hold_pos = r->hold_len = 0;
	r->hold_uoff = u->uoff;
	r->streaming = 0;
	r->err = 0;
	r->truncated = 0;
	r->errmsg[0] = '\0';
	r->past_end = 0;
	r->resumed = 0;
	r->upos = u->uoff;
	return (0);
}

/*
 * Reading past a damaged block.  In a file that can seek, a unit that
 * fails its checksum or does not decode is skipped: reading goes on at
 * the next unit, found by its magic number, and the end of the stream
 * becomes an error that counts what was skipped, so that one bad sector
 * costs one block, not the rest of the capture, and the program still
 * learns that something was lost.  Only where the units end at records
 * (see sfc_records_walk()).
 */

/*
 * The reader's sticky error for damage, with its message; returns -1.
 */
static ptrdiff_t sfc_damage_error(struct sfc_reader *,
    PCAP_FORMAT_STRING(const char *), ...) PCAP_PRINTFLIKE(2, 3);

static ptrdiff_t
sfc_damage_error(struct sfc_reader *r, const char *fmt, ...)
{
	va_list ap;

	r->err = EBADMSG;
	va_start(ap, fmt);
	(void)vsnprintf(r->errmsg, sizeof(r->errmsg), fmt, ap);
	va_end(ap);
	errno = r->err;
	return (-1);
}

/*
 * The end of a stream in which damaged units were skipped is an error
 * that says so, so that a program that read every intact unit still
 * learns that some were lost.
 */
static ptrdiff_t
sfc_damage_end(struct sfc_reader *r)
{
	if (r->damaged == 1)
		return (sfc_damage_error(r,
		    "corrupt %s compressed file: %.180s; every other block was read",
		    r->name, r->damage));
	return (sfc_damage_error(r,
	    "corrupt %s compressed file: %.150s, and %lld more bad block%s; every other block was read",
	    r->name, r->damage, (long long)(r->damaged - 1),
	    r->damaged == 2 ? "" : "s"));
}

/*
 * The raw offset of the first unit start at or after from, found by its
 * magic number; -1 if there is none, -2 on a read error.
 */
static int64_t
sfc_find_unit(struct sfc_reader *r, int64_t from)
{
	const char *magic = r->ops->unit_magic;
	size_t mlen = strlen(magic), keep = 0, n, i;
	u_char buf[16384];
	int64_t base = from;	/* raw offset of buf[0] */

	if (fseeko(r->in.raw, (off_t)(r->raw_base + from), SEEK_SET) != 0)
		return (-2);
	for (;;) {
		n = fread(buf + keep, 1, sizeof(buf) - keep, r->in.raw);
		if (n == 0)
			return (ferror(r->in.raw) ? -2 : -1);
		n += keep;
		for (i = 0; i + mlen <= n; i++) {
			if (memcmp(buf + i, magic, mlen) == 0)
				return (base + (int64_t)i);
		}
		/* A magic number may straddle two reads. */
		keep = n < mlen - 1 ? n : mlen - 1;
		memmove(buf, buf + n - keep, keep);
		base += (int64_t)(n - keep);
	}
}

/*
 * Whether reading can go on past a damaged unit here: in a file that
 * can seek, in a container whose units are independent and found by
 * their magic number.
 */
static int
sfc_can_resync(struct sfc_reader *r)
{
	return (r->ops->unit_magic != NULL && r->ops->dec_units_independent &&
	    sfc_raw_seekable(r));
}

/*
 * The unit after a skipped one cannot be shown to start at a record:
 * the read ends, as it would have without the skip.  Returns -1.
 */
static int
sfc_refuse_skip(struct sfc_reader *r, const char *why)
{
	if (r->damaged == 1)
		return ((int)sfc_damage_error(r,
		    "corrupt %s compressed file: %.100s; the block after it %.64s, so no more could be read",
		    r->name, r->damage, why));
	return ((int)sfc_damage_error(r,
	    "corrupt %s compressed file: bad block at byte offset %lld (the last of %lld); the block after it %.64s, so no more could be read",
	    r->name, (long long)r->damaged_last, (long long)r->damaged, why));
}

/*
 * A unit was held whole: learn whether it ended at a record (see
 * sfc_records_walk()).  The unit read after a skipped one must both
 * start and end at a record; one that does not shows that this file's
 * units do not follow its records after all, and the read ends there,
 * as it would have without the skip, rather than hand out a record
 * read from the middle of another.  Returns 0, or -1 with the sticky
 * error set.
 */
static int
sfc_resync_walk(struct sfc_reader *r)
{
	int resumed = r->resumed;

	r->resumed = 0;
	if (!sfc_can_resync(r))
		return (0);
	if (sfc_records_walk(&r->records, r->hold, r->hold_len,
	    r->hold_uoff) || !resumed)
		return (0);
	return (sfc_refuse_skip(r, "does not start at a packet record"));
}

/*
 * A unit too large to hold is streamed without being walked, so where
 * records end is no longer known; if it follows a skipped unit, where
 * it starts was never known either, and the read ends.  Returns 0, or
 * -1 with the sticky error set.
 */
static int
sfc_resync_unheld(struct sfc_reader *r)
{
	int resumed = r->resumed;

	r->resumed = 0;
	sfc_records_lost(&r->records);
	if (!resumed)
		return (0);
	return (sfc_refuse_skip(r,
	    "is too large to check that it starts at a packet record"));
}

/*
 * A unit failed its checksum or did not decode.  Units are independent,
 * so where they end at records, reading can go on at the next unit:
 * one bad sector then costs one block, not the rest of the capture.
 * That every unit read so far ended at a record is the evidence that
 * the next one starts at one; the unit after the skip is checked in
 * turn (sfc_resync_walk()).  The unit is found by its magic number,
 * after the damaged unit's start; a false match fails to decode in
 * turn and the search goes on after it.  Only
 * for a unit that was held whole, so that none of its bytes went out,
 * and not for the first unit, which holds the file header that the
 * units after it cannot be read without.
 *
 * Returns 1 when reading goes on at the next unit, 0 when it cannot (the
 * damage is then reported as before), and -1 when no unit follows (the
 * end of the stream, with the damage reported).
 */
static int
sfc_skip_damaged(struct sfc_reader *r, const char *ebuf)
{
	struct sfc_unit_start u;
	int64_t next;

	if (r->streaming || r->hold_uoff == 0 || !r->records.aligned ||
	    !sfc_can_resync(r))
		return (0);
	if (r->damaged == 0 || r->unit_off > r->damaged_last) {
		if (r->damaged == 0)
			snprintf(r->damage, sizeof(r->damage),
			    "bad block at byte offset %lld: %.150s",
			    (long long)r->unit_off, ebuf);
		r->damaged++;
		r->damaged_last = r->unit_off;
	}
	next = sfc_find_unit(r, r->unit_off + 1);
	if (next == -2)
		return (0);
	if (next == -1)
		return (-1);
	u.coff = next;
	u.uoff = r->hold_uoff;
	if (sfc_restart_at(r, &u) != 0)
		return (0);
	r->resumed = 1;
	return (1);
}

/*
 * Reading the decompressed stream.
 *
 * The stream is handed out one container unit (gzip member, LZ4 or zstd
 * frame) at a time, and a unit of at most SFC_MAX_BLOCK only once it is
 * complete and its checksum, where it has one, matched, so such a
 * damaged block is never delivered, in part or whole; larger units are
 * streamed (see sfc_cookie_read()).  A unit the file ends inside is
 * handed out as far as it was decoded, as zcat would,
 * since a capture cut short (a full disk, a killed capture) is the
 * common case and its bytes are not damaged, only missing.  The error
 * says what is wrong and at which byte offset of the compressed file.
 * Where the file can seek and its units end at records, reading goes on
 * past a damaged unit (above).
 */

/* The first size of the buffer holding a unit. */
#define	SFC_HOLD_FIRST		65536

/*
 * A decoder's error becomes the reader's sticky error, with a message
 * that says what is wrong, in which container, at which offset.
 */
static ptrdiff_t
sfc_reader_error(struct sfc_reader *r, ptrdiff_t n, const char *ebuf)
{
	switch (n) {

	case SFC_DEC_TRUNCATED:
		r->err = EIO;
		r->truncated = 1;
		snprintf(r->errmsg, sizeof(r->errmsg),
		    "truncated %s compressed file: it ends inside the block starting at byte offset %lld",
		    r->name, (long long)r->unit_off);
		break;

	case SFC_DEC_CORRUPT:
		r->err = EBADMSG;
		snprintf(r->errmsg, sizeof(r->errmsg),
		    "corrupt %s compressed file: bad block at byte offset %lld: %.150s",
		    r->name, (long long)r->unit_off, ebuf);
		break;

	case SFC_DEC_FAILED:
		r->err = EIO;
		snprintf(r->errmsg, sizeof(r->errmsg),
		    "error reading %s compressed file: %.200s", r->name, ebuf);
		break;

	default:
		r->err = r->in.ioerr != 0 ? r->in.ioerr : EIO;
		pcapint_fmt_errmsg_for_errno(r->errmsg, sizeof(r->errmsg),
		    r->err, "error reading %s compressed file", r->name);
		break;
	}
	errno = r->err;
	return (-1);
}

/*
 * The stream's read function, for fopencookie(); sets errno and the
 * reader's message on failure.
 *
 * Decompress the next unit into the hold buffer, and only hand it out
 * once it is complete and its checksum matched.  Units larger than
 * SFC_MAX_BLOCK, which other tools write (gzip makes one member of a
 * whole file), are streamed instead, to keep memory bounded; damage
 * there shows up late.
 */
static ssize_t
sfc_cookie_read(void *cookie, char *buf, size_t size)
{
	struct sfc_reader *r = cookie;
	ssize_t n;
	size_t k, nsize;
	u_char *nhold;
	int done, skip;
	char ebuf[PCAP_ERRBUF_SIZE];

	if (r->past_end)
		return (0);
	while (r->hold_pos == r->hold_len) {
		if (r->err != 0) {
			errno = r->err;
			return (-1);
		}
		ebuf[0] = '\0';
		if (r->streaming) {
			n = r->ops->dec_read(r->dec, &r->in, (u_char *)buf,
			    size, &r->unit_off, &done, ebuf);
			if (n < 0)
				return (sfc_reader_error(r, n, ebuf));
			r->upos += n;
			if (done) {
				r->streaming = 0;
				if (sfc_check_unit(r, r->hold_coff,
				    r->hold_uoff, r->upos) != 0)
					return (-1);
			}
			if (n != 0 || !done)
				return (n);
			continue;
		}
		r->hold_pos = r->hold_len = 0;
		r->hold_uoff = r->upos;
		for (;;) {
			if (r->hold_len == r->hold_size) {
				nsize = r->hold_size == 0 ? SFC_HOLD_FIRST :
				    2 * r->hold_size;
				nhold = r->hold_size >= SFC_MAX_BLOCK ? NULL :
				    realloc(r->hold, nsize);
				if (nhold == NULL) {
					/* Too large to hold: stream it. */
					if (sfc_resync_unheld(r) != 0) {
						r->hold_len = 0;
						return (-1);
					}
					r->streaming = 1;
					break;
				}
				r->hold = nhold;
				r->hold_size = nsize;
			}
			n = r->ops->dec_read(r->dec, &r->in,
			    r->hold + r->hold_len, r->hold_size - r->hold_len,
			    &r->unit_off, &done, ebuf);
			if (n == SFC_DEC_TRUNCATED && r->hold_len > 0) {
				/*
				 * The file ends inside this unit: what was
				 * decoded of it is handed out, as a plain
				 * savefile cut short gives its whole
				 * records, and the read after it fails.
				 */
				(void)sfc_reader_error(r, n, ebuf);
				break;
			}
			if (n < 0) {
				r->hold_len = 0;
				if (n == SFC_DEC_CORRUPT) {
					skip = sfc_skip_damaged(r,
					    ebuf);
					if (skip > 0)
						break;	/* the next unit */
					if (skip < 0)
						return (
						    sfc_damage_end(r));
				}
				return (sfc_reader_error(r, n, ebuf));
			}
			if (r->hold_len == 0 && (n != 0 || done)) {
				r->hold_coff = r->unit_off;
				sfc_note_unit(r, r->unit_off,
				    r->hold_uoff);
			}
			r->hold_len += (size_t)n;
			if (done) {
				if (sfc_check_unit(r, r->hold_coff,
				    r->hold_uoff, r->hold_uoff +
				    (int64_t)r->hold_len) != 0 ||
				    sfc_resync_walk(r) != 0) {
					r->hold_len = 0;
					return (-1);
				}
				break;
			}
			if (n == 0) {
				/* The end of the stream. */
				if (r->damaged != 0)
					return (sfc_damage_end(r));
				return (0);
			}
		}
	}
	k = r->hold_len - r->hold_pos;
	if (k > size)
		k = size;
	memcpy(buf, r->hold + r->hold_pos, k);
	r->hold_pos += k;
	r->upos += k;
	return ((ssize_t)k);
}

/*
 * Seeking in the decompressed stream behind pcap_file().
 *
 * The stream seeks as the file would (ftell(), fseek() and rewind() on
 * pcap_file() see uncompressed offsets), where the compressed file can
 * seek: programs rewind a capture, or search it by time.  The reader
 * notes where each unit starts, in the compressed file and in the
 * uncompressed stream, as it goes, and a seek backwards starts a new
 * decoder at the unit that holds the target, or at the beginning of
 * the file where units do not stand alone, then decompresses forward
 * to the target.  A pipe cannot seek, and the stream says so (ESPIPE)
 * as a pipe of an uncompressed capture does.
 */

/*
 * Drop what lies between the position and target, or up to the end of
 * the stream, which is then known.  0, or -1 with errno set.
 */
static int
sfc_skip_to(struct sfc_reader *r, int64_t target)
{
	char scratch[8192];
	ssize_t n;
	size_t k;

	while (r->upos < target) {
		if (r->hold_pos < r->hold_len) {
			k = r->hold_len - r->hold_pos;
			if ((int64_t)k > target - r->upos)
				k = (size_t)(target - r->upos);
			r->hold_pos += k;
			r->upos += (int64_t)k;
			continue;
		}
		k = sizeof(scratch);
		if ((int64_t)k > target - r->upos)
			k = (size_t)(target - r->upos);
		n = sfc_cookie_read(r, scratch, k);
		if (n < 0 && r->truncated) {
			/*
			 * The file ends inside a unit: the stream ends
			 * where decoding did, as a plain savefile cut
			 * short ends where its bytes do.
			 */
			r->end_uoff = r->upos;
			break;
		}
		if (n < 0)
			return (-1);
		if (n == 0) {
			r->end_uoff = r->upos;
			break;
		}
	}
	return (0);
}

/*
 * The last unit that starts at or before target and where a new
 * decoder may begin; the file's first unit if units do not stand
 * alone.
 */
static const struct sfc_unit_start *
sfc_unit_before(const struct sfc_reader *r, int64_t target)
{
	size_t lo, hi, mid;

	if (!r->ops->dec_units_independent)
		return (&r->units[0]);
	lo = 0;
	hi = r->nunits;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->units[mid].uoff <= target)
			lo = mid;
		else
			hi = mid;
	}
	return (&r->units[lo]);
}

/*
 * Whether a seek table agrees with what the stream has read: every unit
 * already met starts where the table says, and the length, if known,
 * is the table's.  A table that lies about a unit the stream has read is
 * not used; one that lies only about units not yet read is found out
 * when they are (sfc_check_unit()), unless a seek skips them.
 */
static int
sfc_table_agrees(const struct sfc_reader *r,
    const struct sfc_unit_start *u, size_t n, int64_t end)
{
	size_t i, j;

	if (r->end_uoff >= 0 && r->end_uoff != end)
		return (0);
	for (i = 0, j = 0; i < r->nunits; i++) {
		while (j < n && u[j].coff < r->units[i].coff)
			j++;
		if (j == n || u[j].coff != r->units[i].coff ||
		    u[j].uoff != r->units[i].uoff)
			return (0);
	}
	return (1);
}

/*
 * A file that ends with a seek table tells where every unit starts and
 * how long the stream is, without decompressing anything.  Looked for
 * once, at the first seek that is not a mere ftell().
 */
static void
sfc_use_seek_table(struct sfc_reader *r)
{
	struct sfc_unit_start *u;
	size_t n;
	int64_t end;

	r->table_tried = 1;
	if (!r->ops->seek_table || !r->ops->dec_units_independent ||
	    sfc_seektable_read(r->in.raw, r->raw_base, &u, &n,
	    &end) != 0)
		return;
	if (!sfc_table_agrees(r, u, n, end)) {
		free(u);
		return;
	}
	free(r->units);
	r->units = u;
	r->nunits = r->units_size = n;
	r->end_uoff = end;
	r->table_used = 1;
}

/*
 * The stream's seek function, for fopencookie(); sets errno on failure.
 * funopen() reaches it through sfc_funopen_seek().
 */
static int
sfc_cookie_seek(void *cookie, SFC_COOKIE_OFF_T *offset, int whence)
{
	struct sfc_reader *r = cookie;
	int64_t from, target, base;
	int invalid;

	/*
	 * Past a skipped damaged block, offsets are short by what it
	 * held, which is not known: they are no longer those of the
	 * uncompressed file, and the stream stops seeking, as a pipe.
	 */
	if (!sfc_raw_seekable(r) || r->damaged != 0) {
		errno = ESPIPE;
		return (-1);
	}
	/* ftell(): the position, with nothing to decompress. */
	if (whence == SEEK_CUR && *offset == 0) {
		*offset = r->upos;
		return (0);
	}
	if (!r->table_tried)
		sfc_use_seek_table(r);
	from = r->upos;
	switch (whence) {

	case SEEK_SET:
		base = 0;
		break;

	case SEEK_CUR:
		base = from;
		break;

	case SEEK_END:
		/* Learn the length by reading to the end, once. */
		if (r->end_uoff < 0) {
			if (r->err == 0 && !r->past_end) {
				if (sfc_skip_to(r, INT64_MAX) != 0)
					return (-1);
			} else if (sfc_restart_at(r, sfc_unit_before(r,
			    r->upos)) != 0 || sfc_skip_to(r, INT64_MAX) != 0)
				return (-1);
		}
		base = r->end_uoff;
		break;

	default:
		errno = EINVAL;
		return (-1);
	}
	/*
	 * A target before the start, or past what an offset holds, fails
	 * with EINVAL and leaves the position where it was, as a file's
	 * would; the read to the end that SEEK_END needed is undone.
	 */
	invalid = 0;
	if ((*offset > 0 && base > INT64_MAX - (int64_t)*offset) ||
	    base + (int64_t)*offset < 0)
		invalid = EINVAL;
	target = invalid != 0 ? from : base + (int64_t)*offset;
	if (invalid != 0 && r->upos == from) {
		errno = invalid;
		return (-1);
	}
	if (r->err == 0 && !r->past_end) {
		/*
		 * In the unit at hand (while its bytes are the ones being
		 * handed out), or ahead: no new decoder.
		 */
		if (r->hold_uoff + (int64_t)r->hold_pos == r->upos &&
		    target >= r->hold_uoff &&
		    target <= r->hold_uoff + (int64_t)r->hold_len) {
			r->hold_pos = (size_t)(target - r->hold_uoff);
			r->upos = target;
			goto done;
		}
		if (target >= r->upos &&
		    sfc_unit_before(r, target)->uoff <= r->upos)
			goto forward;
	}
	if (r->end_uoff >= 0 && target >= r->end_uoff) {
		/* Past the end: no need to decompress anything. */
		r->upos = target;
		r->past_end = 1;
		goto done;
	}
	if (sfc_restart_at(r, sfc_unit_before(r, target)) != 0)
		return (-1);
forward:
	if (sfc_skip_to(r, target) != 0)
		return (-1);
	if (r->upos < target) {
		/* As a file does, let the position go past the end. */
		r->upos = target;
		r->past_end = 1;
	}
done:
	if (invalid != 0) {
		errno = invalid;
		return (-1);
	}
	*offset = target;
	return (0);
}

/*
 * Opening: the check_headers[] entry wraps the raw FILE in the stream,
 * and the pcap and pcapng readers read from that.
 */

/* The size of the input buffer. */
#define	SFC_READ_BUF		65536

static void
sfc_reader_free(struct sfc_reader *r)
{
	if (r->dec != NULL)
		r->ops->dec_free(r->dec);
	free(r->hold);
	free(r->in.buf);
	free(r->units);
	free(r);
}

static int
sfc_cookie_rclose(void *cookie)
{
	struct sfc_reader *r = cookie;
	int ret;

	ret = 0;
	if (r->owns_raw && r->in.raw != stdin)
		ret = fclose(r->in.raw) == EOF ? -1 : 0;
	sfc_reader_free(r);
	return (ret);
}

/*
 * The pcap and pcapng readers turn any read error into "error reading
 * dump file: <strerror>"; put the decompressing stream's message, which
 * says what is wrong and at which offset, in its place.
 */
static int
sfc_next_packet(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	struct sfc_reader *r = p->rfile_cookie;
	int status;

	status = (*r->next_packet_op)(p, h, data);
	if (status == -1 && r->err != 0)
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
	return (status);
}

#ifndef HAVE_FOPENCOOKIE
/*
 * funopen()'s read and seek functions, where the C library has it
 * instead of fopencookie(): the same, with an int count and the offset
 * passed by value (fpos_t is an off_t there).
 */
static int
sfc_funopen_read(void *cookie, char *buf, int size)
{
	return ((int)sfc_cookie_read(cookie, buf, (size_t)size));
}

static off_t
sfc_funopen_seek(void *cookie, off_t offset, int whence)
{
	SFC_COOKIE_OFF_T o = offset;

	if (sfc_cookie_seek(cookie, &o, whence) == -1)
		return (-1);
	return (o);
}
#endif

static pcap_t *
sfc_open_reader(const struct pcapint_sfc_container *c, const uint8_t *magic,
    FILE *fp, u_int precision, char *errbuf, int *err)
{
#ifdef HAVE_FOPENCOOKIE
	static const cookie_io_functions_t fns = {
		sfc_cookie_read, NULL, sfc_cookie_seek,
		sfc_cookie_rclose
	};
#endif
	struct sfc_reader *r;
	FILE *cfp;
	uint8_t m[4];
	size_t n;
	off_t here;
	pcap_t *p;

	*err = 1;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	r->ops = c->dec;
	r->name = c->name;
	r->in.raw = fp;
	r->in.size = SFC_READ_BUF;
	r->in.buf = malloc(r->in.size);
	if (r->in.buf == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		sfc_reader_free(r);
		return (NULL);
	}
	/* Push back the magic: stdin and pipes cannot seek. */
	memcpy(r->in.buf, magic, 4);
	r->in.len = 4;
	/* Where the stream starts in fp, for seeks; -1 if fp cannot tell. */
	here = ftello(fp);
	r->raw_base = here >= 4 ? (int64_t)here - 4 : -1;
	/* The first unit starts the file; a reader can always go back. */
	r->end_uoff = -1;
	sfc_records_init(&r->records);
	r->units_size = 64;
	r->units = malloc(r->units_size * sizeof(*r->units));
	if (r->units == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		sfc_reader_free(r);
		return (NULL);
	}
	r->units[0].coff = 0;
	r->units[0].uoff = 0;
	r->nunits = 1;
	r->dec = r->ops->dec_create(errbuf);
	if (r->dec == NULL) {
		sfc_reader_free(r);
		return (NULL);
	}
#ifdef HAVE_FOPENCOOKIE
	cfp = fopencookie(r, "r", fns);
#else
	cfp = funopen(r, sfc_funopen_read, NULL, sfc_funopen_seek,
	    sfc_cookie_rclose);
#endif
	if (cfp == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "cannot open the decompressing stream");
		sfc_reader_free(r);
		return (NULL);
	}
	/*
	 * From here on, closing cfp frees r; until we succeed it must
	 * leave fp alone, as our caller closes that on failure.
	 */
	r->fp = cfp;
	n = fread(m, 1, sizeof(m), cfp);
	if (n != sizeof(m)) {
		if (r->err != 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
		else
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "truncated dump file; the %s compressed data holds only %zu bytes",
			    c->name, n);
		goto fail;
	}
	p = pcap_check_header(m, cfp, precision, errbuf, err);
	if (p == NULL && *err == 0)
		p = pcap_ng_check_header(m, cfp, precision, errbuf, err);
	if (p == NULL) {
		if (r->err != 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
		else if (*err == 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "%s compressed file does not contain a pcap or pcapng capture",
			    c->name);
		*err = 1;
		goto fail;
	}
	r->next_packet_op = p->next_packet_op;
	p->next_packet_op = sfc_next_packet;
	p->rfile_cookie = r;
	r->owns_raw = 1;
	/*
	 * savefile.c keeps an rfile a check routine has set, and takes
	 * selectable_fd from the raw file: a cookie has no descriptor.
	 */
	p->rfile = cfp;
	return (p);

fail:
	(void)fclose(cfp);
	return (NULL);
}

pcap_t *
pcapint_compressed_check_header(const uint8_t *magic, FILE *fp,
    u_int precision, char *errbuf, int *err)
{
	const struct pcapint_sfc_container *c;

	*err = 0;
	c = sfc_container_by_magic(magic);
	if (c == NULL)
		return (NULL);
	if (c->dec == NULL)
		return (sfc_cannot_read(c, errbuf, err));
	return (sfc_open_reader(c, magic, fp, precision, errbuf, err));
}

#else /* SFC_COOKIE_OFF_T */

/*
 * Without fopencookie() or funopen(), a reader cannot hand savefile.c
 * a decompressing FILE *.  Compressed files are still recognised, and
 * refused by name rather than as "unknown file format".
 */
pcap_t *
pcapint_compressed_check_header(const uint8_t *magic, FILE *fp _U_,
    u_int precision _U_, char *errbuf, int *err)
{
	const struct pcapint_sfc_container *c;

	*err = 0;
	c = sfc_container_by_magic(magic);
	if (c == NULL)
		return (NULL);
	return (sfc_cannot_read(c, errbuf, err));
}
#endif /* SFC_COOKIE_OFF_T */
