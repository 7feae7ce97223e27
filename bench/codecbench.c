/*
 * codecbench -- compress a pcap byte stream with each codec the
 * compressing dumper offers, block by block, through libpcap's own
 * dumper, and report throughput and ratio.
 *
 * This reproduces the measurement behind Shimizu et al., Fig. 4 and
 * Table 1: the writer collects records into a fixed-size block and
 * compresses each full block with one call, so what matters is the
 * throughput and ratio of that at a given block size.  The records of
 * the input pcap file go through pcap_dump() into a dumper opened with
 * pcap_dump_fopen_with_options() at that codec, level and block size
 * (pcap_dump_options_set_compression(), _set_block_size(); no writer
 * thread), so every figure is the shipped code's: its containers (LZ4
 * frames, gzip members, zstd frames with checksums), its zstd settings
 * and its skip of blocks that do not compress.
 *
 * Throughput is input bytes per second of the process's CPU time,
 * writing to /dev/null, so a busy shared machine slows the number less
 * than wall-clock time would; it is the speed of one core.  Each
 * measurement is repeated --reps times; the median and the spread are
 * printed.  Before timing, the records are written once to a file in
 * TMPDIR, whose size gives the ratio, and read back through
 * pcap_open_offline() and compared, so a broken codec cannot report a
 * good ratio.
 *
 * The block size "pkt" (in --blocks) is Shimizu et al.'s per-packet
 * scheme, which libpcap does not ship (bench/ppcap.c captures with it):
 * each packet compressed on its own with zlib or LZO1X-1 by the
 * libraries directly; block is 0 in the output, the ratio counts the
 * 16-byte record headers as stored uncompressed plus a 4-byte length
 * per packet, and throughput is of the packet bytes.
 *
 * Output: one CSV line per codec and block size:
 *	type,codec,block,mbps_median,mbps_min,mbps_max,ratio
 * ratio = compressed bytes / input bytes (Shimizu's Table 1 convention:
 * smaller is better).  A codec this libpcap lacks (lzo without
 * --with-lzo) gets no line, and a message on stderr.
 *
 * Exit status: 0 ok, 1 a round trip failed or a codec call failed,
 * 2 bad usage or unreadable input.
 */
#define _DEFAULT_SOURCE	/* u_int and friends for pcap.h, with POSIX 2008 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lzo/lzo1x.h>
#include <zlib.h>
#include <pcap/pcap.h>

#define PROG		"codecbench"
#define MAX_BLOCKS	32
#define MAX_REPS	15

/* The per-packet scheme's codecs, called directly. */
enum pkt_codec {
	P_NONE,		/* not offered per packet */
	P_LZO,
	P_ZLIB
};

static const struct {
	const char *name;	/* in the CSV */
	const char *spec;	/* libpcap's codec and level */
	enum pkt_codec pkt;
} codecs[] = {
	{ "none",	"none",		P_NONE },	/* blocks, stored */
	{ "lz4",	"lz4:1",	P_NONE },
	{ "lzo1x-1",	"lzo",		P_LZO },
	{ "zstd-1",	"zstd:1",	P_NONE },
	{ "zstd-3",	"zstd:3",	P_NONE },
	{ "zstd-fast5",	"zstd:-5",	P_NONE },	/* zstd --fast=5 */
	{ "zlib-1",	"gzip:1",	P_ZLIB },
};
#define N_CODECS	(sizeof(codecs) / sizeof(codecs[0]))

/* The per-packet scheme's buffers. */
struct work {
	unsigned char *out;
	size_t out_cap;
	unsigned char *back;	/* decompressed packet, for the check */
	void *lzo_mem;
	z_stream zs;
};

/* The input's records, for pcap_dump(). */
static struct pcap_pkthdr *rec_hdr;
static const u_char **rec_data;
static size_t nrecs;
static int in_linktype, in_snaplen, in_nano;

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f,
"Usage: " PROG " [--reps N] [--blocks B1,B2,...] [--codecs C1,C2,...]\n"
"                  --type NAME FILE\n"
"\n"
"  --reps N        timed repetitions per measurement (default 3, max %d)\n"
"  --blocks LIST   block sizes in bytes, k suffix = KiB (default\n"
"                  4k,8k,16k,32k,64k,128k,256k,512k,1024k); pkt = each\n"
"                  packet of the pcap FILE on its own (block 0 in the output)\n"
"  --codecs LIST   codecs to run (default all):",
	    MAX_REPS);
	for (i = 0; i < N_CODECS; i++)
		fprintf(f, " %s", codecs[i].name);
	fprintf(f,
"\n"
"  --type NAME     label for the first CSV column (the frame type)\n"
"\n"
"Prints CSV: type,codec,block,mbps_median,mbps_min,mbps_max,ratio\n");
}

static void
bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s: %s\n", what, arg);
	fprintf(stderr, "Try '" PROG " --help' for more information.\n");
	exit(2);
}

static double
cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static int
parse_size(const char *s, size_t *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0)
		return (-1);
	if (*end == 'k' || *end == 'K') {
		v *= 1024;
		end++;
	}
	if (*end != '\0' || v == 0 || v > 64UL * 1024 * 1024)
		return (-1);
	*out = v;
	return (0);
}

/* Compress one packet; returns the compressed size, 0 on failure. */
static size_t
compress_packet(struct work *w, enum pkt_codec c, const unsigned char *in,
    size_t len)
{
	switch (c) {
	case P_LZO: {
		lzo_uint n = 0;

		if (lzo1x_1_compress(in, len, w->out, &n, w->lzo_mem) != LZO_E_OK)
			return (0);
		return ((size_t)n);
	}
	case P_ZLIB:
		/* deflateReset keeps the allocated state. */
		if (deflateReset(&w->zs) != Z_OK)
			return (0);
		w->zs.next_in = (Bytef *)(uintptr_t)in;
		w->zs.avail_in = (uInt)len;
		w->zs.next_out = w->out;
		w->zs.avail_out = (uInt)w->out_cap;
		if (deflate(&w->zs, Z_FINISH) != Z_STREAM_END)
			return (0);
		return ((size_t)w->zs.total_out);
	default:
		return (0);
	}
}

/* Decompress what compress_packet left in w->out; 0 if it equals in. */
static int
check_packet(struct work *w, enum pkt_codec c, const unsigned char *in,
    size_t len, size_t clen)
{
	size_t r;

	switch (c) {
	case P_LZO: {
		lzo_uint n = len;

		if (lzo1x_decompress_safe(w->out, clen, w->back, &n, NULL) !=
		    LZO_E_OK)
			return (-1);
		r = n;
		break;
	}
	case P_ZLIB: {
		uLongf n = len;

		if (uncompress(w->back, &n, w->out, clen) != Z_OK)
			return (-1);
		r = n;
		break;
	}
	default:
		return (-1);
	}
	if (r != len || memcmp(w->back, in, len) != 0)
		return (-1);
	return (0);
}

/*
 * The records of the pcap file in data (host byte order), for
 * pcap_dump().  Returns 0, or 1 if it is not a pcap file of whole
 * records.
 */
static int
load_records(const unsigned char *data, size_t len)
{
	uint32_t v, caplen;
	size_t off, n;

	memcpy(&v, data, sizeof(v));
	if (len < 24 || (v != 0xa1b2c3d4 && v != 0xa1b23c4d)) {
		fprintf(stderr, PROG ": not a pcap file in host byte order\n");
		return (1);
	}
	in_nano = v == 0xa1b23c4d;
	memcpy(&v, data + 16, sizeof(v));
	in_snaplen = (int)v;
	memcpy(&v, data + 20, sizeof(v));
	in_linktype = (int)(v & 0x03FFFFFF);
	n = 0;
	for (off = 24; off + 16 <= len; off += 16 + caplen) {
		memcpy(&caplen, data + off + 8, sizeof(caplen));
		if (caplen > len - off - 16)
			break;
		n++;
	}
	if (off != len) {
		fprintf(stderr, PROG ": not a pcap file of whole records\n");
		return (1);
	}
	rec_hdr = calloc(n + 1, sizeof(*rec_hdr));
	rec_data = calloc(n + 1, sizeof(*rec_data));
	if (rec_hdr == NULL || rec_data == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		return (1);
	}
	nrecs = 0;
	for (off = 24; off + 16 <= len; off += 16 + caplen) {
		struct pcap_pkthdr *h = &rec_hdr[nrecs];

		memcpy(&v, data + off, sizeof(v));
		h->ts.tv_sec = v;
		memcpy(&v, data + off + 4, sizeof(v));
		h->ts.tv_usec = v;
		memcpy(&caplen, data + off + 8, sizeof(caplen));
		h->caplen = caplen;
		memcpy(&v, data + off + 12, sizeof(v));
		h->len = v;
		rec_data[nrecs++] = data + off + 16;
	}
	return (0);
}

/*
 * Every record through a dumper on f with libpcap's codec spec and
 * block size; closes f.  0, or -1 with errbuf filled in.
 */
static int
dump_records(pcap_t *dead, FILE *f, const char *spec, size_t block,
    char *errbuf)
{
	pcap_dump_options_t *o;
	pcap_dumper_t *d;
	size_t i;

	o = pcap_dump_options_create(errbuf);
	if (o == NULL)
		goto fail;
	if (pcap_dump_options_set_compression(o, spec, errbuf) != 0 ||
	    pcap_dump_options_set_block_size(o, block, errbuf) != 0) {
		pcap_dump_options_free(o);
		goto fail;
	}
	d = pcap_dump_fopen_with_options(dead, f, o);
	pcap_dump_options_free(o);
	if (d == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(dead));
		goto fail;
	}
	for (i = 0; i < nrecs; i++)
		pcap_dump((u_char *)d, &rec_hdr[i], rec_data[i]);
	if (pcap_dump_flush(d) != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", pcap_dump_geterr(d));
		pcap_dump_close(d);
		return (-1);
	}
	pcap_dump_close(d);
	return (0);
fail:
	fclose(f);
	return (-1);
}

/* Whether this libpcap has the codec of spec (lzo needs --with-lzo). */
static int
codec_available(const char *name, const char *spec)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;
	int ok;

	o = pcap_dump_options_create(errbuf);
	ok = o != NULL &&
	    pcap_dump_options_set_compression(o, spec, errbuf) == 0;
	if (!ok)
		fprintf(stderr, PROG ": %s (%s) skipped: %s\n", name, spec,
		    errbuf);
	pcap_dump_options_free(o);
	return (ok);
}

/*
 * The untimed pass: the records into a file, its size, and the records
 * read back through pcap_open_offline() compared with the input.
 * Returns the file's size, 0 on failure (with a message).
 */
static size_t
roundtrip(pcap_t *dead, const char *name, const char *spec, size_t block)
{
	char errbuf[PCAP_ERRBUF_SIZE], path[4096];
	struct pcap_pkthdr *h;
	const u_char *data;
	const char *tmp;
	pcap_t *p;
	size_t i, size = 0;
	FILE *f;
	long end;
	int fd;

	tmp = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/codecbench.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return (0);
	}
	errbuf[0] = '\0';
	if (dump_records(dead, f, spec, block, errbuf) != 0) {
		fprintf(stderr, PROG ": %s (%s), %zu-byte blocks: %s\n", name,
		    spec, block, errbuf);
		goto out;
	}
	p = pcap_open_offline_with_tstamp_precision(path, in_nano ?
	    PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO, errbuf);
	if (p == NULL) {
		fprintf(stderr, PROG ": %s, %zu-byte blocks: %s\n", name,
		    block, errbuf);
		goto out;
	}
	for (i = 0; i < nrecs; i++) {
		if (pcap_next_ex(p, &h, &data) != 1 ||
		    h->caplen != rec_hdr[i].caplen ||
		    h->len != rec_hdr[i].len ||
		    h->ts.tv_sec != rec_hdr[i].ts.tv_sec ||
		    h->ts.tv_usec != rec_hdr[i].ts.tv_usec ||
		    memcmp(data, rec_data[i], h->caplen) != 0)
			break;
	}
	if (i < nrecs || pcap_next_ex(p, &h, &data) != -2) {
		fprintf(stderr, PROG ": %s, %zu-byte blocks: record %zu does not read back as written\n",
		    name, block, i);
		pcap_close(p);
		goto out;
	}
	pcap_close(p);
	f = fopen(path, "rb");
	if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) > 0)
		size = (size_t)end;
	if (f != NULL)
		fclose(f);
out:
	unlink(path);
	return (size);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y ? 1 : 0);
}

static unsigned char *
read_file(const char *path, size_t *lenp)
{
	FILE *f;
	unsigned char *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;

	f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return (NULL);
	}
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			nb = realloc(buf, cap);
			if (nb == NULL) {
				fprintf(stderr, PROG ": out of memory\n");
				free(buf);
				fclose(f);
				return (NULL);
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, PROG ": %s: read error\n", path);
		free(buf);
		fclose(f);
		return (NULL);
	}
	fclose(f);
	*lenp = len;
	return (buf);
}

/*
 * Per-packet compression of the pcap file in data: every packet on its
 * own, its record header stored as it is.  Checks each round trip, then
 * times reps passes over the packets.  Returns 0, or 1 if a round trip
 * failed or the file is not a pcap file of whole records.
 */
static int
per_packet(struct work *w, enum pkt_codec c, const char *name,
    const char *type, const unsigned char *data, size_t len, int reps)
{
	double t[MAX_REPS];
	size_t off, caplen, clen, pkt_bytes = 0, out = 24;
	uint32_t v;
	int rep;

	memcpy(&v, data, sizeof(v));
	if (len < 24 || (v != 0xa1b2c3d4 && v != 0xa1b23c4d)) {
		fprintf(stderr, PROG ": pkt: not a pcap file in host byte order\n");
		return (1);
	}
	for (off = 24; off + 16 <= len; off += 16 + caplen) {
		memcpy(&v, data + off + 8, sizeof(v));
		caplen = v;
		if (caplen > len - off - 16 || caplen > w->out_cap / 2) {
			fprintf(stderr, PROG ": pkt: bad record at offset %zu\n",
			    off);
			return (1);
		}
		clen = compress_packet(w, c, data + off + 16, caplen);
		if (clen == 0 || check_packet(w, c, data + off + 16, caplen,
		    clen) != 0) {
			fprintf(stderr, PROG ": %s, per packet: round trip failed at offset %zu\n",
			    name, off);
			return (1);
		}
		pkt_bytes += caplen;
		out += 16 + 4 + clen;
	}
	if (off != len || pkt_bytes == 0) {
		fprintf(stderr, PROG ": pkt: not a pcap file of whole records\n");
		return (1);
	}
	for (rep = 0; rep < reps; rep++) {
		double t0 = cpu_seconds(), dt;

		for (off = 24; off + 16 <= len; off += 16 + caplen) {
			memcpy(&v, data + off + 8, sizeof(v));
			caplen = v;
			(void)compress_packet(w, c, data + off + 16, caplen);
		}
		dt = cpu_seconds() - t0;
		if (dt <= 0)
			dt = 1e-9;
		t[rep] = (double)pkt_bytes / dt / 1e6;
	}
	qsort(t, (size_t)reps, sizeof(t[0]), cmp_double);
	printf("%s,%s,0,%.1f,%.1f,%.1f,%.4f\n", type, name,
	    reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2,
	    t[0], t[reps - 1], (double)out / (double)len);
	fflush(stdout);
	return (0);
}

int
main(int argc, char **argv)
{
	const char *type = NULL, *path = NULL;
	const char *blocks_arg = "4k,8k,16k,32k,64k,128k,256k,512k,1024k";
	const char *codecs_arg = NULL;
	size_t blocks[MAX_BLOCKS], nblocks = 0;
	int reps = 3, want[N_CODECS];
	unsigned char *data;
	size_t len, ci, bi, total;
	struct work w;
	pcap_t *dead;
	double t[MAX_REPS];
	int i, rep, avail, status = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--help") == 0) {
			usage(stdout);
			return (0);
		}

		if (a[0] == '-' && a[1] == '-' && v == NULL)
			bad_usage("option needs a value", a);
		if (strcmp(a, "--reps") == 0) {
			reps = atoi(v);
			if (reps < 1 || reps > MAX_REPS)
				bad_usage("bad --reps", v);
			i++;
		} else if (strcmp(a, "--blocks") == 0) {
			blocks_arg = v;
			i++;
		} else if (strcmp(a, "--codecs") == 0) {
			codecs_arg = v;
			i++;
		} else if (strcmp(a, "--type") == 0) {
			type = v;
			i++;
		} else if (a[0] == '-' && a[1] != '\0') {
			bad_usage("unknown option", a);
		} else if (path == NULL) {
			path = a;
		} else {
			bad_usage("more than one input file", a);
		}
	}
	if (type == NULL || path == NULL) {
		usage(stderr);
		return (2);
	}

	/* Block list: comma separated sizes. */
	{
		char *copy = strdup(blocks_arg), *tok, *save = NULL;

		if (copy == NULL)
			return (2);
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			if (nblocks == MAX_BLOCKS)
				bad_usage("too many block sizes", tok);
			if (strcmp(tok, "pkt") == 0)
				blocks[nblocks] = 0;
			else if (parse_size(tok, &blocks[nblocks]) != 0)
				bad_usage("bad block size", tok);
			nblocks++;
		}
		free(copy);
		if (nblocks == 0)
			bad_usage("no block sizes", blocks_arg);
	}
	for (ci = 0; ci < N_CODECS; ci++)
		want[ci] = codecs_arg == NULL;
	if (codecs_arg != NULL) {
		char *copy = strdup(codecs_arg), *tok, *save = NULL;

		if (copy == NULL)
			return (2);
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			for (ci = 0; ci < N_CODECS; ci++)
				if (strcmp(tok, codecs[ci].name) == 0)
					break;
			if (ci == N_CODECS)
				bad_usage("unknown codec", tok);
			want[ci] = 1;
		}
		free(copy);
	}

	data = read_file(path, &len);
	if (data == NULL)
		return (2);
	if (len == 0) {
		fprintf(stderr, PROG ": %s: empty file\n", path);
		return (2);
	}

	if (load_records(data, len) != 0)
		return (2);
	dead = pcap_open_dead_with_tstamp_precision(in_linktype, in_snaplen,
	    in_nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
	memset(&w, 0, sizeof(w));
	w.out_cap = 262144 + 262144 / 8 + 65536;	/* any packet */
	w.out = malloc(w.out_cap);
	w.back = malloc(262144);
	w.lzo_mem = malloc(LZO1X_1_MEM_COMPRESS);
	if (dead == NULL || w.out == NULL || w.back == NULL ||
	    w.lzo_mem == NULL || lzo_init() != LZO_E_OK ||
	    deflateInit(&w.zs, 1) != Z_OK) {
		fprintf(stderr, PROG ": cannot set up\n");
		return (1);
	}

	for (ci = 0; ci < N_CODECS; ci++) {
		if (!want[ci])
			continue;
		avail = -1;	/* not asked yet */
		for (bi = 0; bi < nblocks; bi++) {
			size_t bs = blocks[bi];

			if (bs == 0) {
				if (codecs[ci].pkt == P_NONE)
					continue;
				if (per_packet(&w, codecs[ci].pkt,
				    codecs[ci].name, type, data, len, reps) != 0)
					status = 1;
				continue;
			}

			if (avail < 0)
				avail = codec_available(codecs[ci].name,
				    codecs[ci].spec);
			if (!avail)
				continue;
			/* Untimed pass: round trip check and the ratio. */
			total = roundtrip(dead, codecs[ci].name,
			    codecs[ci].spec, bs);
			if (total == 0) {
				status = 1;
				continue;
			}
			for (rep = 0; rep < reps; rep++) {
				char errbuf[PCAP_ERRBUF_SIZE];
				double t0, dt;
				FILE *f;

				f = fopen("/dev/null", "w");
				if (f == NULL)
					return (1);
				t0 = cpu_seconds();
				if (dump_records(dead, f, codecs[ci].spec, bs,
				    errbuf) != 0) {
					fprintf(stderr, PROG ": %s: %s\n",
					    codecs[ci].name, errbuf);
					return (1);
				}
				dt = cpu_seconds() - t0;
				if (dt <= 0)
					dt = 1e-9;
				t[rep] = (double)len / dt / 1e6;
			}
			qsort(t, (size_t)reps, sizeof(t[0]), cmp_double);
			printf("%s,%s,%zu,%.1f,%.1f,%.1f,%.4f\n", type,
			    codecs[ci].name, bs,
			    reps % 2 ? t[reps / 2] :
			    (t[reps / 2 - 1] + t[reps / 2]) / 2,
			    t[0], t[reps - 1], (double)total / (double)len);
			fflush(stdout);
		}
	}
	deflateEnd(&w.zs);
	pcap_close(dead);
	free(w.lzo_mem);
	free(w.back);
	free(w.out);
	free(rec_hdr);
	free(rec_data);
	free(data);
	return (status);
}
