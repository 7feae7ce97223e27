/*
 * ppcap -- capture with per-packet compression, the scheme of Shimizu et
 * al. that block compression replaced: every packet is compressed on its
 * own (zlib level 1 or LZO1X-1) before a buffered write, so a packet costs
 * a codec call and small packets barely compress.  The bench compares it
 * with stock tcpdump and with our block-compressing tcpdump.
 *
 * Capture: pcap_create/pcap_activate on an interface with a snapshot
 * length and a kernel buffer size, then pcap_loop.  Like tcpdump it says
 * "listening on IFACE" on standard error once the capture is active,
 * prints its counts on SIGUSR1 (its handler restarts system calls, so a
 * blocked write is not disturbed), and at SIGINT or SIGTERM stops, flushes
 * and prints the same counts:
 *	N packets captured
 *	N packets received by filter
 *	N packets dropped by kernel
 *
 * The output ("-" = standard output) is not a pcap file:
 *	8 bytes		magic "sluicepp"
 *	1 byte		codec: 'z' zlib, 'l' LZO1X-1
 *	24 bytes	pcap file header (as pcap_dump_open writes it)
 *	per packet:	16-byte pcap record header (host byte order, as in
 *			the file header), 4-byte compressed length (host
 *			order), the compressed packet
 * "ppcap -d FILE" turns it back into a pcap file on standard output, so
 * the bench counts what was kept with the same checker as the others.
 *
 * Exit status: 0 ok, 1 capture or I/O error, 2 bad usage.
 */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzo/lzo1x.h>
#include <pcap/pcap.h>
#include <zlib.h>

#define PROG		"ppcap"
#define MAGIC		"sluicepp"
#define MAGIC_LEN	8
#define OUT_BUF		(32 * 1024)	/* Shimizu's buffer size */
#define MAX_PKT		262144

struct pp {
	char codec;
	FILE *out;
	unsigned char *cbuf;
	size_t cbuf_cap;
	z_stream zs;
	void *lzo_mem;
	int werr;		/* sticky write error */
};

static pcap_t *pd;
static volatile sig_atomic_t n_captured;
static struct pp pp;

static void
usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " -i IFACE [-s SNAPLEN] [-B KIB] [-z zlib|lzo] -w FILE\n"
"       " PROG " -d FILE\n"
"\n"
"  -i IFACE   capture on IFACE\n"
"  -s SNAPLEN snapshot length (default 65535)\n"
"  -B KIB     kernel buffer size in KiB (default libpcap's)\n"
"  -z CODEC   per-packet codec: zlib (level 1, default) or lzo (LZO1X-1)\n"
"  -w FILE    output, - = standard output\n"
"  -d FILE    decompress FILE (- = standard input) to a pcap file on\n"
"             standard output\n");
}

static void
put_counts(const char *prefix)
{
	struct pcap_stat st;
	char line[256];
	int n;

	memset(&st, 0, sizeof(st));
	if (pd == NULL || pcap_stats(pd, &st) != 0)
		return;
	if (prefix != NULL)
		n = snprintf(line, sizeof(line),
		    "%s: %ld packets captured, %u packets received by filter, "
		    "%u packets dropped by kernel\n", prefix, (long)n_captured,
		    st.ps_recv, st.ps_drop);
	else
		n = snprintf(line, sizeof(line),
		    "%ld packets captured\n%u packets received by filter\n"
		    "%u packets dropped by kernel\n", (long)n_captured,
		    st.ps_recv, st.ps_drop);
	if (n > 0)
		(void)write(STDERR_FILENO, line, (size_t)n);
}

/* As tcpdump's SIGUSR1 does; pcap_stats is a getsockopt. */
static void
on_usr1(int sig)
{
	(void)sig;
	put_counts(PROG);
}

static void
on_stop(int sig)
{
	(void)sig;
	if (pd != NULL)
		pcap_breakloop(pd);
}

static void
out_write(const void *p, size_t len)
{
	if (pp.werr == 0 && fwrite(p, 1, len, pp.out) != len)
		pp.werr = errno != 0 ? errno : EIO;
}

static void
on_packet(u_char *user, const struct pcap_pkthdr *h, const u_char *bytes)
{
	struct {
		uint32_t sec, usec, caplen, len;
	} rec;
	uint32_t clen;

	(void)user;
	if (pp.codec == 'z') {
		pp.zs.next_in = (Bytef *)(uintptr_t)bytes;
		pp.zs.avail_in = h->caplen;
		pp.zs.next_out = pp.cbuf;
		pp.zs.avail_out = (uInt)pp.cbuf_cap;
		if (deflate(&pp.zs, Z_FINISH) != Z_STREAM_END) {
			pp.werr = EINVAL;
			return;
		}
		clen = (uint32_t)pp.zs.total_out;
		(void)deflateReset(&pp.zs);
	} else {
		lzo_uint n = 0;

		if (lzo1x_1_compress(bytes, h->caplen, pp.cbuf, &n,
		    pp.lzo_mem) != LZO_E_OK) {
			pp.werr = EINVAL;
			return;
		}
		clen = (uint32_t)n;
	}
	rec.sec = (uint32_t)h->ts.tv_sec;
	rec.usec = (uint32_t)h->ts.tv_usec;
	rec.caplen = h->caplen;
	rec.len = h->len;
	out_write(&rec, sizeof(rec));
	out_write(&clen, sizeof(clen));
	out_write(pp.cbuf, clen);
	n_captured = n_captured + 1;
}

static int
capture(const char *dev, int snap, int bufkb, const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t thiszone;
		uint32_t sigfigs, snaplen, linktype;
	} fh;
	struct sigaction sa;
	int rc;

	pd = pcap_create(dev, errbuf);
	if (pd == NULL) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return (1);
	}
	(void)pcap_set_snaplen(pd, snap);
	if (bufkb > 0)
		(void)pcap_set_buffer_size(pd, bufkb * 1024);
	(void)pcap_set_timeout(pd, 1000);
	rc = pcap_activate(pd);
	if (rc < 0) {
		fprintf(stderr, PROG ": %s: %s\n", dev, pcap_geterr(pd));
		return (1);
	}
	if (strcmp(path, "-") == 0)
		pp.out = stdout;
	else
		pp.out = fopen(path, "wb");
	if (pp.out == NULL) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return (1);
	}
	if (setvbuf(pp.out, NULL, _IOFBF, OUT_BUF) != 0) {
		fprintf(stderr, PROG ": setvbuf failed\n");
		return (1);
	}
	pp.cbuf_cap = (size_t)compressBound(MAX_PKT) + MAX_PKT / 16 + 64 + 3;
	pp.cbuf = malloc(pp.cbuf_cap);
	if (pp.cbuf == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		return (1);
	}
	if (pp.codec == 'z') {
		if (deflateInit(&pp.zs, 1) != Z_OK) {
			fprintf(stderr, PROG ": deflateInit failed\n");
			return (1);
		}
	} else {
		pp.lzo_mem = malloc(LZO1X_1_MEM_COMPRESS);
		if (pp.lzo_mem == NULL || lzo_init() != LZO_E_OK) {
			fprintf(stderr, PROG ": LZO setup failed\n");
			return (1);
		}
	}
	fh.magic = 0xa1b2c3d4;
	fh.major = 2;
	fh.minor = 4;
	fh.thiszone = 0;
	fh.sigfigs = 0;
	fh.snaplen = (uint32_t)snap;
	fh.linktype = (uint32_t)pcap_datalink(pd);
	out_write(MAGIC, MAGIC_LEN);
	out_write(&pp.codec, 1);
	out_write(&fh, sizeof(fh));

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_usr1;
	(void)sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_stop;
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);

	fprintf(stderr, PROG ": listening on %s, per-packet %s\n", dev,
	    pp.codec == 'z' ? "zlib -1" : "LZO1X-1");
	rc = pcap_loop(pd, -1, on_packet, NULL);
	if (rc == PCAP_ERROR) {
		fprintf(stderr, PROG ": %s\n", pcap_geterr(pd));
		return (1);
	}
	if (fflush(pp.out) != 0 && pp.werr == 0)
		pp.werr = errno;
	if (pp.werr != 0) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(pp.werr));
		put_counts(NULL);
		return (1);
	}
	put_counts(NULL);
	return (0);
}

/* Read exactly len bytes; 0 at a clean end before the first byte. */
static int
read_full(FILE *f, void *p, size_t len, int *eof_ok)
{
	size_t n = fread(p, 1, len, f);

	if (n == len)
		return (1);
	*eof_ok = n == 0 && feof(f);
	return (0);
}

static int
decompress(const char *path)
{
	FILE *in;
	unsigned char magic[MAGIC_LEN + 1], fh[24], *cb, *pb;
	struct {
		uint32_t sec, usec, caplen, len;
	} rec;
	uint32_t clen;
	int eof_ok = 0;
	long n = 0;

	in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (in == NULL) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return (1);
	}
	if (!read_full(in, magic, sizeof(magic), &eof_ok) ||
	    memcmp(magic, MAGIC, MAGIC_LEN) != 0 ||
	    (magic[MAGIC_LEN] != 'z' && magic[MAGIC_LEN] != 'l') ||
	    !read_full(in, fh, sizeof(fh), &eof_ok)) {
		fprintf(stderr, PROG ": %s: not a ppcap file\n", path);
		return (1);
	}
	cb = malloc(MAX_PKT + MAX_PKT / 16 + 64 + 3 + compressBound(MAX_PKT));
	pb = malloc(MAX_PKT);
	if (cb == NULL || pb == NULL || lzo_init() != LZO_E_OK) {
		fprintf(stderr, PROG ": out of memory\n");
		return (1);
	}
	if (fwrite(fh, 1, sizeof(fh), stdout) != sizeof(fh))
		return (1);
	for (;;) {
		if (!read_full(in, &rec, sizeof(rec), &eof_ok)) {
			if (eof_ok)
				break;
			fprintf(stderr, PROG ": %s: truncated after %ld packets\n",
			    path, n);
			return (1);
		}
		if (!read_full(in, &clen, sizeof(clen), &eof_ok) ||
		    rec.caplen > MAX_PKT ||
		    clen > MAX_PKT + MAX_PKT / 16 + 64 + 3 ||
		    !read_full(in, cb, clen, &eof_ok)) {
			fprintf(stderr, PROG ": %s: bad record after %ld packets\n",
			    path, n);
			return (1);
		}
		if (magic[MAGIC_LEN] == 'z') {
			uLongf plen = MAX_PKT;

			if (uncompress(pb, &plen, cb, clen) != Z_OK ||
			    plen != rec.caplen) {
				fprintf(stderr, PROG ": %s: packet %ld does not decompress\n",
				    path, n);
				return (1);
			}
		} else {
			lzo_uint plen = MAX_PKT;

			if (lzo1x_decompress_safe(cb, clen, pb, &plen, NULL) !=
			    LZO_E_OK || plen != rec.caplen) {
				fprintf(stderr, PROG ": %s: packet %ld does not decompress\n",
				    path, n);
				return (1);
			}
		}
		if (fwrite(&rec, 1, sizeof(rec), stdout) != sizeof(rec) ||
		    fwrite(pb, 1, rec.caplen, stdout) != rec.caplen)
			return (1);
		n++;
	}
	free(cb);
	free(pb);
	if (in != stdin)
		fclose(in);
	return (fflush(stdout) == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	const char *dev = NULL, *out = NULL, *dec = NULL;
	int snap = 65535, bufkb = 0, c;

	pp.codec = 'z';
	while ((c = getopt(argc, argv, "i:s:B:z:w:d:h")) != -1) {
		switch (c) {
		case 'i':	dev = optarg; break;
		case 's':	snap = atoi(optarg); break;
		case 'B':	bufkb = atoi(optarg); break;
		case 'w':	out = optarg; break;
		case 'd':	dec = optarg; break;
		case 'z':
			if (strcmp(optarg, "zlib") == 0)
				pp.codec = 'z';
			else if (strcmp(optarg, "lzo") == 0)
				pp.codec = 'l';
			else {
				fprintf(stderr, PROG ": unknown codec %s\n", optarg);
				return (2);
			}
			break;
		case 'h':	usage(stdout); return (0);
		default:	usage(stderr); return (2);
		}
	}
	if (optind != argc || (dec == NULL && (dev == NULL || out == NULL)) ||
	    snap <= 0 || snap > MAX_PKT || bufkb < 0) {
		usage(stderr);
		return (2);
	}
	if (dec != NULL)
		return (decompress(dec));
	return (capture(dev, snap, bufkb, out));
}
