/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * seek-test: the stream behind pcap_file() of a compressed capture must
 * behave as the FILE * of the same capture uncompressed does.
 *
 *   seek-test same PLAIN FILE [OPS]
 *	opens both with pcap_open_offline() and runs the same ftell(),
 *	fseek() (SEEK_SET, SEEK_CUR, SEEK_END, past the end, before the
 *	start), fread(), fgetc() and rewind() on both streams: a fixed
 *	walk over every record boundary of a pcap file, forward and then
 *	backward, then OPS (default 3000) random operations from a fixed
 *	seed.  Every result, errno on failure, position and byte must be
 *	the same; then pcap_next_ex() from the start of the records must
 *	deliver the same packets.  Prints what differs first; exit 1.
 *   seek-test pipe
 *	reads a capture from stdin: prints the errno names of fseek()
 *	and ftell() ("ESPIPE ESPIPE" for a pipe) and the number of
 *	packets read after them.
 *   seek-test rewind FILE
 *	what nfpcapd does: read one packet, fseek() back to where the
 *	records start, then count the packets (prints the count).
 *   seek-test addtable IN OUT
 *	copies the zstd file IN to OUT with a seek table in the zstd
 *	"seekable format" appended (each frame's sizes, found with
 *	libzstd), as the zstd seekable API writes it.
 *   seek-test end FILE
 *	fseek(SEEK_END) on the stream, then reads the last 4 bytes:
 *	prints "end OFFSET" or the error.
 *   seek-test after FILE
 *	reads every packet, to the end or an error, then prints "N
 *	packets", what ftell() gives (the offset or the errno name),
 *	whether 100 more ftell() calls moved the compressed file
 *	underneath (decompressed again), the errno names of fseeko() to
 *	SEEK_CUR + INT64_MAX and to SEEK_END - INT64_MAX, each followed by
 *	whether ftell() still gives the same position ("kept" or
 *	"moved"), and where fseeko() to SEEK_END goes.
 *   seek-test endread FILE
 *	what tcpslice does: fseek(SEEK_END), then back to the first
 *	record, then pcap_next_ex() to the end: prints "N packets", or
 *	"error after N packets: " and pcap_geterr().
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <zstd.h>

static const char *what;	/* the operation being compared */
static long step;

static void
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "seek-test: step %ld (%s): ", step, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static pcap_t *
open_capture(const char *name)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;

	p = pcap_open_offline(name, errbuf);
	if (p == NULL) {
		fprintf(stderr, "seek-test: %s: %s\n", name, errbuf);
		exit(2);
	}
	return (p);
}

/* A small fixed generator, so that every run does the same operations. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (rng_state);
}

static void
same_ftell(FILE *a, FILE *b)
{
	long pa, pb;
	int ea, eb;

	errno = 0;
	pa = ftell(a);
	ea = errno;
	errno = 0;
	pb = ftell(b);
	eb = errno;
	if (pa != pb || (pa == -1 && ea != eb))
		fail("ftell() gives %ld (errno %d) for the plain file, %ld (errno %d) for the compressed one",
		    pa, ea, pb, eb);
}

static void
same_fseek(FILE *a, FILE *b, long off, int whence)
{
	int ra, rb, ea, eb;

	errno = 0;
	ra = fseek(a, off, whence);
	ea = errno;
	errno = 0;
	rb = fseek(b, off, whence);
	eb = errno;
	if (ra != rb || (ra != 0 && ea != eb))
		fail("fseek(%ld, %d) gives %d (errno %d) for the plain file, %d (errno %d) for the compressed one",
		    off, whence, ra, ea, rb, eb);
	same_ftell(a, b);
}

static void
same_fread(FILE *a, FILE *b, size_t n)
{
	static char *ba, *bb;
	static size_t bsize;
	size_t na, nb;

	if (n > bsize) {
		free(ba);
		free(bb);
		ba = malloc(n);
		bb = malloc(n);
		if (ba == NULL || bb == NULL) {
			fprintf(stderr, "seek-test: out of memory\n");
			exit(2);
		}
		bsize = n;
	}
	na = fread(ba, 1, n, a);
	nb = fread(bb, 1, n, b);
	if (na != nb)
		fail("fread(%zu) gives %zu bytes for the plain file, %zu for the compressed one",
		    n, na, nb);
	if (memcmp(ba, bb, na) != 0)
		fail("fread(%zu) gives other bytes", n);
	if ((feof(a) != 0) != (feof(b) != 0) || ferror(a) || ferror(b))
		fail("feof() or ferror() differ after fread(%zu)", n);
	same_ftell(a, b);
}

static long
file_size(FILE *a)
{
	long here, end;

	here = ftell(a);
	fseek(a, 0, SEEK_END);
	end = ftell(a);
	fseek(a, here, SEEK_SET);
	return (end);
}

static void
same_packets(pcap_t *pa, pcap_t *pb)
{
	struct pcap_pkthdr *ha, *hb;
	const u_char *da, *db;
	int ra, rb;
	long n = 0;

	what = "pcap_next_ex() after the seeks";
	for (;;) {
		ra = pcap_next_ex(pa, &ha, &da);
		rb = pcap_next_ex(pb, &hb, &db);
		if (ra != rb)
			fail("packet %ld: pcap_next_ex() gives %d for the plain file, %d for the compressed one (%s)",
			    n, ra, rb, rb == -1 ? pcap_geterr(pb) : "");
		if (ra != 1)
			break;
		if (ha->caplen != hb->caplen || ha->len != hb->len ||
		    ha->ts.tv_sec != hb->ts.tv_sec ||
		    ha->ts.tv_usec != hb->ts.tv_usec ||
		    memcmp(da, db, ha->caplen) != 0)
			fail("packet %ld differs", n);
		n++;
	}
	printf("%ld packets\n", n);
}

static int
cmd_same(const char *plain, const char *file, long ops)
{
	pcap_t *pa, *pb;
	FILE *a, *b;
	long size, start, off, i;
	uint32_t caplen;
	unsigned char rec[16];
	long *bounds = NULL;
	long nbounds = 0, maxbounds = 0;
	int whence;

	pa = open_capture(plain);
	pb = open_capture(file);
	a = pcap_file(pa);
	b = pcap_file(pb);
	what = "after pcap_open_offline()";
	same_ftell(a, b);
	start = ftell(a);
	printf("%s\n", fileno(b) == -1 ? "no descriptor" : "a descriptor");
	size = file_size(a);

	/*
	 * Every record boundary of a pcap file (blocks end at record
	 * boundaries, so this includes every block's), forward, then
	 * backward, reading each record header there.
	 */
	if (pcap_major_version(pa) == 2 && !pcap_is_swapped(pa)) {
		off = start;
		while (off + 16 <= size) {
			if (nbounds == maxbounds) {
				maxbounds = maxbounds ? 2 * maxbounds : 1024;
				bounds = realloc(bounds,
				    (size_t)maxbounds * sizeof(*bounds));
				if (bounds == NULL)
					return (2);
			}
			bounds[nbounds++] = off;
			fseek(a, off, SEEK_SET);
			if (fread(rec, 1, 16, a) != 16)
				break;
			memcpy(&caplen, rec + 8, 4);
			off += 16 + (long)caplen;
		}
		what = "every record boundary, forward";
		for (i = 0; i < nbounds; i++) {
			step = i;
			same_fseek(a, b, bounds[i], SEEK_SET);
			same_fread(a, b, 16);
		}
		what = "every record boundary, backward";
		for (i = nbounds - 1; i >= 0; i--) {
			step = i;
			same_fseek(a, b, bounds[i], SEEK_SET);
			same_fread(a, b, 16);
		}
		printf("%ld record boundaries\n", nbounds);
	}
	free(bounds);

	/* The ends, and outside them. */
	what = "the ends";
	same_fseek(a, b, 0, SEEK_END);
	same_fread(a, b, 10);
	same_fseek(a, b, -1, SEEK_END);
	same_fread(a, b, 10);
	same_fseek(a, b, 0, SEEK_SET);
	same_fread(a, b, 10);
	same_fseek(a, b, size + 1000, SEEK_SET);
	same_fread(a, b, 10);
	same_fseek(a, b, -5, SEEK_CUR);
	same_fread(a, b, 10);
	same_fseek(a, b, -1, SEEK_SET);
	same_fseek(a, b, -(size + 1), SEEK_END);
	rewind(a);
	rewind(b);
	same_ftell(a, b);

	what = "random operations";
	for (step = 0; step < ops; step++) {
		switch (rng() % 7) {

		case 0:
			same_fseek(a, b, (long)(rng() % (uint64_t)(size + 100)),
			    SEEK_SET);
			break;

		case 1:
			same_fseek(a, b, (long)(rng() % (uint64_t)(2 * size + 1)) -
			    size, SEEK_CUR);
			break;

		case 2:
			whence = SEEK_END;
			same_fseek(a, b, -(long)(rng() % (uint64_t)(size + 10)),
			    whence);
			break;

		case 3:
		case 4:
			same_fread(a, b, 1 + (size_t)(rng() % 70000));
			break;

		case 5:
			if (fgetc(a) != fgetc(b))
				fail("fgetc() differs");
			same_ftell(a, b);
			break;

		case 6:
			same_fread(a, b, 1 + (size_t)(rng() % 16));
			same_fseek(a, b, -(long)(rng() % 32), SEEK_CUR);
			break;
		}
	}
	printf("%ld random operations\n", ops);

	/* Where the records start, pcap itself reads on as it would. */
	what = "back to the first record";
	same_fseek(a, b, start, SEEK_SET);
	same_packets(pa, pb);
	pcap_close(pa);
	pcap_close(pb);
	return (0);
}

static const char *
errno_name(int e)
{
	switch (e) {
	case 0:		return ("none");
	case ESPIPE:	return ("ESPIPE");
	case EBADF:	return ("EBADF");
	case EINVAL:	return ("EINVAL");
	default:	return ("other");
	}
}

static long
count_rest(pcap_t *p)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	long n = 0;
	int r;

	while ((r = pcap_next_ex(p, &h, &d)) == 1)
		n++;
	if (r == -1) {
		fprintf(stderr, "seek-test: %s\n", pcap_geterr(p));
		exit(1);
	}
	return (n);
}

static int
cmd_pipe(void)
{
	pcap_t *p;
	FILE *f;
	int es, et;

	p = open_capture("-");
	f = pcap_file(p);
	errno = 0;
	if (fseek(f, 0, SEEK_SET) == 0)
		es = 0;
	else
		es = errno;
	errno = 0;
	if (ftell(f) >= 0)
		et = 0;
	else
		et = errno;
	printf("%s %s %ld\n", errno_name(es), errno_name(et), count_rest(p));
	pcap_close(p);
	return (0);
}

static int
cmd_rewind(const char *file)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	pcap_t *p;
	long start;

	p = open_capture(file);
	start = ftell(pcap_file(p));
	if (start < 0 || pcap_next_ex(p, &h, &d) != 1) {
		fprintf(stderr, "seek-test: %s: no first packet, or ftell() fails\n",
		    file);
		return (1);
	}
	if (fseek(pcap_file(p), start, SEEK_SET) != 0) {
		fprintf(stderr, "seek-test: %s: fseek(): %s\n", file,
		    strerror(errno));
		return (1);
	}
	printf("%ld\n", count_rest(p));
	pcap_close(p);
	return (0);
}

static void
put_le32(FILE *f, uint32_t v)
{
	unsigned char b[4];

	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
	fwrite(b, 1, 4, f);
}

static int
cmd_addtable(const char *in, const char *out)
{
	static unsigned char src[64 << 20], dst[16 << 20];
	size_t len, pos, csize, dsize, n;
	uint32_t sizes[2 * 65536];
	FILE *f;

	f = fopen(in, "rb");
	if (f == NULL)
		return (2);
	len = fread(src, 1, sizeof(src), f);
	fclose(f);
	for (pos = 0, n = 0; pos < len; pos += csize, n++) {
		csize = ZSTD_findFrameCompressedSize(src + pos, len - pos);
		dsize = ZSTD_decompress(dst, sizeof(dst), src + pos, csize);
		if (ZSTD_isError(csize) || ZSTD_isError(dsize) || n == 65536) {
			fprintf(stderr, "seek-test: %s: not a zstd file of whole frames\n",
			    in);
			return (1);
		}
		sizes[2 * n] = (uint32_t)csize;
		sizes[2 * n + 1] = (uint32_t)dsize;
	}
	f = fopen(out, "wb");
	if (f == NULL)
		return (2);
	fwrite(src, 1, len, f);
	put_le32(f, 0x184D2A5EU);
	put_le32(f, (uint32_t)(n * 8 + 9));
	for (pos = 0; pos < 2 * n; pos++)
		put_le32(f, sizes[pos]);
	put_le32(f, (uint32_t)n);
	fputc(0, f);
	put_le32(f, 0x8F92EAB1U);
	printf("%zu frames\n", n);
	return (fclose(f) == 0 ? 0 : 1);
}

static int
cmd_end(const char *file)
{
	unsigned char b[4];
	pcap_t *p;
	FILE *f;

	p = open_capture(file);
	f = pcap_file(p);
	if (fseek(f, -4, SEEK_END) != 0 || fread(b, 1, 4, f) != 4) {
		printf("error: %s\n", strerror(errno));
		pcap_close(p);
		return (1);
	}
	printf("end %ld\n", ftell(f));
	pcap_close(p);
	return (0);
}

/* The errno name of a failed call, or "ok". */
static const char *
result_name(int r)
{
	if (r == 0)
		return ("ok");
	switch (errno) {
	case EINVAL:	return ("EINVAL");
	case ESPIPE:	return ("ESPIPE");
	case EOVERFLOW:	return ("EOVERFLOW");
	case EIO:	return ("EIO");
	case EBADMSG:	return ("EBADMSG");
	default:	return (strerror(errno));
	}
}

static int
cmd_after(const char *file)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned long n;
	off_t pos, again, raw_before;
	pcap_t *p;
	FILE *raw, *f;
	int i, r;

	raw = fopen(file, "rb");
	if (raw == NULL) {
		perror(file);
		return (2);
	}
	p = pcap_fopen_offline(raw, errbuf);
	if (p == NULL) {
		fprintf(stderr, "seek-test: %s: %s\n", file, errbuf);
		fclose(raw);
		return (2);
	}
	f = pcap_file(p);
	for (n = 0; pcap_next_ex(p, &h, &data) == 1; n++)
		continue;
	printf("%lu packets\n", n);
	pos = ftello(f);
	if (pos < 0)
		printf("ftell: %s\n", result_name(-1));
	else
		printf("ftell: %lld\n", (long long)pos);
	/* For a compressed file, raw is the compressed file underneath. */
	raw_before = ftello(raw);
	for (i = 0; i < 100; i++)
		(void)ftello(f);
	printf("100 more ftell(): the file underneath %s\n",
	    ftello(raw) == raw_before ? "stayed" : "moved");
	r = fseeko(f, (off_t)INT64_MAX, SEEK_CUR);
	again = ftello(f);
	printf("SEEK_CUR + INT64_MAX: %s, %s\n", result_name(r),
	    again == pos ? "kept" : "moved");
	r = fseeko(f, -(off_t)INT64_MAX, SEEK_END);
	again = ftello(f);
	printf("SEEK_END - INT64_MAX: %s, %s\n", result_name(r),
	    again == pos ? "kept" : "moved");
	r = fseeko(f, 0, SEEK_END);
	printf("SEEK_END: %s, at %lld\n", result_name(r), (long long)ftello(f));
	pcap_close(p);
	return (0);
}

static int
cmd_endread(const char *file)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned long n;
	pcap_t *p;
	FILE *f;
	long first;
	int st;

	p = open_capture(file);
	f = pcap_file(p);
	first = ftell(f);
	if (first < 0 || fseek(f, 0, SEEK_END) != 0 ||
	    fseek(f, first, SEEK_SET) != 0) {
		printf("error: %s\n", strerror(errno));
		pcap_close(p);
		return (1);
	}
	for (n = 0; (st = pcap_next_ex(p, &h, &data)) == 1; n++)
		continue;
	if (st == PCAP_ERROR_BREAK)
		printf("%lu packets\n", n);
	else
		printf("error after %lu packets: %s\n", n, pcap_geterr(p));
	pcap_close(p);
	return (st == PCAP_ERROR_BREAK ? 0 : 1);
}

int
main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "same") == 0)
		return (cmd_same(argv[2], argv[3],
		    argc > 4 ? atol(argv[4]) : 3000));
	if (argc == 2 && strcmp(argv[1], "pipe") == 0)
		return (cmd_pipe());
	if (argc == 3 && strcmp(argv[1], "rewind") == 0)
		return (cmd_rewind(argv[2]));
	if (argc == 4 && strcmp(argv[1], "addtable") == 0)
		return (cmd_addtable(argv[2], argv[3]));
	if (argc == 3 && strcmp(argv[1], "end") == 0)
		return (cmd_end(argv[2]));
	if (argc == 3 && strcmp(argv[1], "after") == 0)
		return (cmd_after(argv[2]));
	if (argc == 3 && strcmp(argv[1], "endread") == 0)
		return (cmd_endread(argv[2]));
	fprintf(stderr, "usage: seek-test same PLAIN FILE [OPS] | pipe | rewind FILE |\n"
	    "       addtable IN OUT | end FILE | after FILE | endread FILE\n");
	return (2);
}
