/*
 * codecbench -- compress a pcap byte stream block by block with each codec
 * the compressed writer can use, and report codec throughput and ratio.
 *
 * This reproduces the measurement behind Shimizu et al., Fig. 4 and
 * Table 1: the writer collects records into a fixed-size buffer and
 * compresses each full buffer with one call, so what matters is the
 * throughput and ratio of one codec call per block of a given size.  The
 * input file is split into consecutive blocks of BLOCK bytes (the last one
 * shorter) and each block is compressed independently, with a context
 * that is reused across blocks as a writer would.
 *
 * Throughput is input bytes per second of this thread's CPU time, so a
 * busy shared machine slows the number less than wall-clock time would;
 * it is the codec's speed on one core.  Each measurement is repeated
 * --reps times; the median and the spread are printed.  Before timing,
 * every codec's output is decompressed once and compared with the input,
 * so a broken codec call cannot report a good ratio.
 *
 * The block size "pkt" (in --blocks) needs a pcap file as input: each
 * codec then compresses every packet on its own (Shimizu et al.'s
 * per-packet scheme, bench/ppcap.c's capture): block is 0 in the output, the ratio
 * counts the 16-byte record headers as stored uncompressed plus a 4-byte
 * length per packet, and throughput is of the packet bytes.
 *
 * Output: one CSV line per codec and block size:
 *	type,codec,block,mbps_median,mbps_min,mbps_max,ratio
 * ratio = compressed bytes / input bytes (Shimizu's Table 1 convention:
 * smaller is better).
 *
 * Exit status: 0 ok, 1 a round trip failed or a codec call failed,
 * 2 bad usage or unreadable input.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lz4.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>

#define PROG		"codecbench"
#define MAX_BLOCKS	32
#define MAX_REPS	15

enum codec_id {
	C_NONE,
	C_LZ4,
	C_LZO,
	C_ZSTD1,
	C_ZSTD3,
	C_ZSTDF5,
	C_ZSTDDEF,
	C_ZLIB1
};

static const struct {
	const char *name;
	enum codec_id id;
} codecs[] = {
	{ "none",	C_NONE },	/* memcpy: the cost of touching the data */
	{ "lz4",	C_LZ4 },
	{ "lzo1x-1",	C_LZO },
	{ "zstd-1",	C_ZSTD1 },
	{ "zstd-3",	C_ZSTD3 },
	{ "zstd-fast5",	C_ZSTDF5 },	/* zstd --fast=5 */
	{ "zstd-pcap",	C_ZSTDDEF },	/* libpcap's default zstd */
	{ "zlib-1",	C_ZLIB1 },
};
#define N_CODECS	(sizeof(codecs) / sizeof(codecs[0]))

struct work {
	unsigned char *out;	/* room for the worst case of any codec */
	size_t out_cap;
	unsigned char *back;	/* decompressed block, for the check */
	void *lzo_mem;
	ZSTD_CCtx *zc;
	int zc_for;		/* the codec zc is set up for, -1: none */
	ZSTD_DCtx *zd;
	z_stream zs;
	int zs_ready;
};

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

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
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

/*
 * Set the zstd context up for codec c, once per codec: the parameters
 * stay across ZSTD_compress2() calls.  Returns 0, or -1 if libzstd
 * refuses a parameter.
 */
static int
setup_zstd(struct work *w, enum codec_id c)
{
	static const struct {
		enum codec_id id;
		int level, hash_log, min_match;
	} p[] = {
		{ C_ZSTD1, 1, 0, 0 },
		{ C_ZSTD3, 3, 0, 0 },
		{ C_ZSTDF5, -5, 0, 0 },
		{ C_ZSTDDEF, -5, 12, 7 },
	};
	size_t i;

	if (w->zc_for == (int)c)
		return (0);
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (p[i].id == c)
			break;
	if (i == sizeof(p) / sizeof(p[0]))
		return (-1);
	ZSTD_CCtx_reset(w->zc, ZSTD_reset_session_and_parameters);
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->zc,
	    ZSTD_c_compressionLevel, p[i].level)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->zc,
	    ZSTD_c_checksumFlag, 1)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->zc,
	    ZSTD_c_hashLog, p[i].hash_log)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->zc,
	    ZSTD_c_minMatch, p[i].min_match)))
		return (-1);
	w->zc_for = (int)c;
	return (0);
}

/* Compress one block; returns the compressed size, 0 on failure. */
static size_t
compress_block(struct work *w, enum codec_id c, const unsigned char *in,
    size_t len)
{
	size_t r;

	switch (c) {
	case C_NONE:
		memcpy(w->out, in, len);
		return (len);
	case C_LZ4: {
		int n = LZ4_compress_default((const char *)in, (char *)w->out,
		    (int)len, (int)w->out_cap);
		return (n > 0 ? (size_t)n : 0);
	}
	case C_LZO: {
		lzo_uint n = 0;

		if (lzo1x_1_compress(in, len, w->out, &n, w->lzo_mem) != LZO_E_OK)
			return (0);
		return ((size_t)n);
	}
	case C_ZSTD1:
	case C_ZSTD3:
	case C_ZSTDF5:
	case C_ZSTDDEF:
		/*
		 * As the writer does it (sf-compress-zstd.c): one frame
		 * per block with its checksum, and for libpcap's default,
		 * level -5 with a 4096-entry hash table and 7-byte
		 * minimum matches.
		 */
		if (setup_zstd(w, c) != 0)
			return (0);
		r = ZSTD_compress2(w->zc, w->out, w->out_cap, in, len);
		return (ZSTD_isError(r) ? 0 : r);
	case C_ZLIB1:
		/*
		 * One zlib stream per block, as a gzip member per block
		 * would be; deflateReset keeps the allocated state.
		 */
		if (deflateReset(&w->zs) != Z_OK)
			return (0);
		w->zs.next_in = (Bytef *)(uintptr_t)in;
		w->zs.avail_in = (uInt)len;
		w->zs.next_out = w->out;
		w->zs.avail_out = (uInt)w->out_cap;
		if (deflate(&w->zs, Z_FINISH) != Z_STREAM_END)
			return (0);
		return ((size_t)w->zs.total_out);
	}
	return (0);
}

/* Decompress what compress_block left in w->out; 0 if it equals in. */
static int
check_block(struct work *w, enum codec_id c, const unsigned char *in,
    size_t len, size_t clen)
{
	size_t r;

	switch (c) {
	case C_NONE:
		memcpy(w->back, w->out, clen);
		r = clen;
		break;
	case C_LZ4: {
		int n = LZ4_decompress_safe((const char *)w->out,
		    (char *)w->back, (int)clen, (int)len);
		r = n < 0 ? (size_t)-1 : (size_t)n;
		break;
	}
	case C_LZO: {
		lzo_uint n = len;

		if (lzo1x_decompress_safe(w->out, clen, w->back, &n, NULL) !=
		    LZO_E_OK)
			return (-1);
		r = n;
		break;
	}
	case C_ZSTD1:
	case C_ZSTD3:
	case C_ZSTDF5:
	case C_ZSTDDEF:
		r = ZSTD_decompressDCtx(w->zd, w->back, len, w->out, clen);
		if (ZSTD_isError(r))
			return (-1);
		break;
	case C_ZLIB1: {
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
per_packet(struct work *w, enum codec_id c, const char *name,
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
		clen = compress_block(w, c, data + off + 16, caplen);
		if (clen == 0 || check_block(w, c, data + off + 16, caplen,
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
			(void)compress_block(w, c, data + off + 16, caplen);
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
	size_t blocks[MAX_BLOCKS], nblocks = 0, maxblock = 0;
	int reps = 3, want[N_CODECS];
	unsigned char *data;
	size_t len, ci, bi, off, clen, total;
	struct work w;
	double t[MAX_REPS];
	int i, rep, status = 0;

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
			if (blocks[nblocks] > maxblock)
				maxblock = blocks[nblocks];
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

	memset(&w, 0, sizeof(w));
	/* Every codec's worst case is below this for the largest block. */
	if (maxblock < 262144)	/* room for any packet ("pkt") */
		maxblock = 262144;
	w.out_cap = maxblock + maxblock / 8 + 65536;
	w.out = malloc(w.out_cap);
	w.back = malloc(maxblock);
	w.lzo_mem = malloc(LZO1X_1_MEM_COMPRESS);
	w.zc = ZSTD_createCCtx();
	w.zc_for = -1;
	w.zd = ZSTD_createDCtx();
	if (w.out == NULL || w.back == NULL || w.lzo_mem == NULL ||
	    w.zc == NULL || w.zd == NULL || lzo_init() != LZO_E_OK ||
	    deflateInit(&w.zs, 1) != Z_OK) {
		fprintf(stderr, PROG ": cannot set up the codecs\n");
		return (1);
	}

	for (ci = 0; ci < N_CODECS; ci++) {
		if (!want[ci])
			continue;
		for (bi = 0; bi < nblocks; bi++) {
			size_t bs = blocks[bi];

			if (bs == 0) {
				if (per_packet(&w, codecs[ci].id,
				    codecs[ci].name, type, data, len, reps) != 0)
					status = 1;
				continue;
			}

			/* Untimed pass: round trip check and the ratio. */
			total = 0;
			for (off = 0; off < len; off += bs) {
				size_t n = len - off < bs ? len - off : bs;

				clen = compress_block(&w, codecs[ci].id,
				    data + off, n);
				if (clen == 0 || check_block(&w, codecs[ci].id,
				    data + off, n, clen) != 0) {
					fprintf(stderr, PROG ": %s, %zu-byte blocks: round trip failed at offset %zu\n",
					    codecs[ci].name, bs, off);
					status = 1;
					break;
				}
				total += clen;
			}
			if (off < len)
				continue;
			for (rep = 0; rep < reps; rep++) {
				double t0 = cpu_seconds(), dt;

				for (off = 0; off < len; off += bs)
					(void)compress_block(&w, codecs[ci].id,
					    data + off,
					    len - off < bs ? len - off : bs);
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
	ZSTD_freeCCtx(w.zc);
	ZSTD_freeDCtx(w.zd);
	free(w.lzo_mem);
	free(w.back);
	free(w.out);
	free(data);
	return (status);
}
