/*
 * sfc-api: exercises the compressed-dumper API of sluice's libpcap.
 *
 *   sfc-api write IN OUT SPEC BLOCKSIZE [RING]
 *                                         copy IN to OUT compressed, check
 *                                         the statistics and ftell64; with
 *                                         a writer thread whose ring is
 *                                         RING bytes
 *   sfc-api fwrite IN OUT SPEC            same, through the FILE * opener
 *   sfc-api append IN OUT SPEC BLOCKSIZE [RING]
 *                                         same, the FILE * opened for
 *                                         appending to what OUT holds:
 *                                         positions count from its end
 *   sfc-api mixed IN OUT SPEC PLAIN       copy IN to OUT compressed and to
 *                                         PLAIN uncompressed, turn about;
 *                                         every other record of OUT is
 *                                         fwrite() in pieces by hand
 *   sfc-api read IN                       count packets via pcap_next_ex;
 *                                         exit 2 and print the error
 *   sfc-api random OUT SPEC BLOCKSIZE N   N incompressible packets: every
 *                                         block stored, bounded overhead
 *   sfc-api full SPEC                     write to /dev/full: sticky error
 *   sfc-api errors                        invalid specs and sizes
 *   sfc-api cuts FILE FROM TO COUNT PLAIN every prefix of FILE of FROM..TO-1
 *                                         bytes: COUNT or more packets,
 *                                         the first ones of PLAIN, then
 *                                         an error saying "truncated"
 *   sfc-api flips FILE PLAIN              every single-byte flip of FILE:
 *                                         an error naming the byte offset,
 *                                         or exactly PLAIN's packets
 *   sfc-api udp N PORT                    send N datagrams to 127.0.0.1
 *   sfc-api streams FILE JUNK             FILE read through a stream the
 *                                         caller owns (fmemopen) gives what
 *                                         pcap_open_offline() gives; JUNK,
 *                                         not a savefile, is refused and
 *                                         its stream left usable
 *   sfc-api blocks FILE                   the offset at which each block
 *                                         of the pcapng FILE ends
 *
 * Prints what it checked; exits 0 when all checks passed, 1 otherwise.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <pcap/pcap.h>

static int failures;

#define	CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

static pcap_dump_options_t *
make_opts(const char *spec, size_t bs)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;

	o = pcap_dump_options_create(errbuf);
	if (o == NULL) {
		fprintf(stderr, "options_create: %s\n", errbuf);
		exit(1);
	}
	if (pcap_dump_options_set_compression(o, spec, errbuf) != 0) {
		fprintf(stderr, "set_compression: %s\n", errbuf);
		exit(1);
	}
	if (bs != 0 && pcap_dump_options_set_block_size(o, bs, errbuf) != 0) {
		fprintf(stderr, "set_block_size: %s\n", errbuf);
		exit(1);
	}
	return (o);
}

static int
copy(int argc, char **argv, int use_fopen)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	pcap_dumper_t *d;
	pcap_dump_options_t *o;
	struct pcap_pkthdr *h;
	const u_char *data;
	struct pcap_dump_stats st;
	uint64_t n, in;
	int64_t pos, base;
	struct stat sb;
	FILE *f;
	unsigned long ring;
	int r, ftell_ok, plain;

	if (argc < 5)
		return (2);
	p = pcap_open_offline(argv[2], errbuf);
	if (p == NULL) {
		fprintf(stderr, "%s\n", errbuf);
		return (1);
	}
	o = make_opts(argv[4], argc > 5 ? strtoul(argv[5], NULL, 0) : 0);
	ring = argc > 6 ? strtoul(argv[6], NULL, 0) : 0;
	plain = strcmp(argv[4], "none") == 0;
	if (ring != 0 &&
	    pcap_dump_options_set_writer_thread(o, ring, errbuf) != 0) {
		fprintf(stderr, "set_writer_thread: %s\n", errbuf);
		return (1);
	}
	base = 0;
	if (use_fopen) {
		f = fopen(argv[3], use_fopen == 2 ? "ab" : "wb");
		if (f == NULL || fseeko(f, 0, SEEK_END) != 0 ||
		    (base = ftello(f)) < 0) {
			perror(argv[3]);
			return (1);
		}
		d = pcap_dump_fopen_with_options(p, f, o);
	} else
		d = pcap_dump_open_with_options(p, argv[3], o);
	pcap_dump_options_free(o);	/* the dumper must not need it */
	if (d == NULL) {
		fprintf(stderr, "open: %s\n", pcap_geterr(p));
		return (1);
	}
	n = 0;
	in = 24;
	ftell_ok = 1;
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		pcap_dump((u_char *)d, h, data);
		n++;
		in += 16 + h->caplen;
		pos = pcap_dump_ftell64(d);
		if (pcap_dump_get_stats(d, &st, sizeof(st)) != 0 ||
		    pos != base + (int64_t)(plain ? in : st.bytes_out))
			ftell_ok = 0;
	}
	CHECK(r == PCAP_ERROR_BREAK, "pcap_next_ex: %s", pcap_geterr(p));
	/* Nothing of the partial block is on disk yet. */
	CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "stats");
	fprintf(strcmp(argv[3], "-") == 0 ? stderr : stdout,
	    "last_block_offset %lld\n", (long long)st.bytes_out);
	/*
	 * Uncompressed, the position is the end of the stream handed over,
	 * with or without a writer thread.  Compressed, it is the bytes on
	 * disk, which a writer thread changes while the statistics are
	 * read, so only without one must the two agree after every packet.
	 */
	if (plain)
		CHECK(ftell_ok,
		    "pcap_dump_ftell64() == the stream handed over after every packet");
	else
		CHECK(ring != 0 || ftell_ok,
		    "pcap_dump_ftell64() == bytes on disk after every packet");
	CHECK(pcap_dump_flush(d) == 0, "flush");
	CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "stats");
	CHECK(st.records == n, "records %" PRIu64 " != %" PRIu64, st.records, n);
	/* After a flush, every record handed over is on disk. */
	CHECK(st.records_written == n && st.records_dropped == 0,
	    "records_written %" PRIu64 ", dropped %" PRIu64 " != %" PRIu64,
	    st.records_written, st.records_dropped, n);
	CHECK(st.ring_size == ring, "ring_size %" PRIu64 " != %lu",
	    st.ring_size, ring);
	CHECK(st.bytes_in == in, "bytes_in %" PRIu64 " != %" PRIu64,
	    st.bytes_in, in);
	CHECK(st.records_lost == 0 && st.error == 0, "no error");
	CHECK(pcap_dump_geterr(d) == NULL, "no error text");
	CHECK(st.blocks >= 1, "blocks");
	pcap_dump_close(d);
	if (strcmp(argv[3], "-") != 0 && stat(argv[3], &sb) == 0)
		CHECK((uint64_t)sb.st_size >= st.bytes_out,
		    "file size %lld < bytes_out %" PRIu64,
		    (long long)sb.st_size, st.bytes_out);
	fprintf(stderr, "records %" PRIu64 " bytes_in %" PRIu64
	    " bytes_out %" PRIu64 " blocks %" PRIu64 " stored %" PRIu64 "\n",
	    st.records, st.bytes_in, st.bytes_out, st.blocks,
	    st.blocks_stored);
	pcap_close(p);
	return (failures != 0);
}

/*
 * pcap_dump() hands a compressed dumper whole records past stdio, while
 * an application may also fwrite() to pcap_dump_file(); both must give
 * one stream.  Every other record goes in by hand, cut in four pieces,
 * and a plain dumper written in between keeps pcap_dump()'s per-thread
 * lookup switching between the two.  Every fifth record of pcap_dump()
 * is the body of a record whose header went in by hand, to both
 * dumpers, so that pcap_dump() also finds the stream inside a record.
 */
static int
mixed(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	pcap_dumper_t *d, *plain;
	pcap_dump_options_t *o;
	struct pcap_pkthdr *h;
	const u_char *data;
	struct pcap_dump_stats st;
	bpf_u_int32 rec[4];
	FILE *f;
	uint64_t n;
	int r;

	if (argc < 6)
		return (2);
	p = pcap_open_offline(argv[2], errbuf);
	if (p == NULL) {
		fprintf(stderr, "%s\n", errbuf);
		return (1);
	}
	o = make_opts(argv[4], 0);
	d = pcap_dump_open_with_options(p, argv[3], o);
	pcap_dump_options_free(o);
	plain = pcap_dump_open(p, argv[5]);
	if (d == NULL || plain == NULL) {
		fprintf(stderr, "open: %s\n", pcap_geterr(p));
		return (1);
	}
	f = pcap_dump_file(d);
	n = 0;
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		if (n % 10 == 4) {
			/* A record whose body is the next one, header and all. */
			rec[0] = (bpf_u_int32)h->ts.tv_sec;
			rec[1] = (bpf_u_int32)h->ts.tv_usec;
			rec[2] = rec[3] = 16 + h->caplen;
			CHECK(fwrite(rec, 1, 16, f) == 16 &&
			    fwrite(rec, 1, 16, pcap_dump_file(plain)) == 16,
			    "fwrite");
		}
		if (n % 2 == 0)
			pcap_dump((u_char *)d, h, data);
		else {
			rec[0] = (bpf_u_int32)h->ts.tv_sec;
			rec[1] = (bpf_u_int32)h->ts.tv_usec;
			rec[2] = h->caplen;
			rec[3] = h->len;
			CHECK(fwrite(rec, 1, 5, f) == 5 &&
			    fwrite((u_char *)rec + 5, 1, 11, f) == 11 &&
			    fwrite(data, 1, h->caplen / 2, f) == h->caplen / 2 &&
			    fwrite(data + h->caplen / 2, 1,
			    h->caplen - h->caplen / 2, f) ==
			    h->caplen - h->caplen / 2, "fwrite");
		}
		pcap_dump((u_char *)plain, h, data);
		n++;
	}
	CHECK(r == PCAP_ERROR_BREAK, "pcap_next_ex: %s", pcap_geterr(p));
	CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == 0 && st.records == n,
	    "records %" PRIu64 " != %" PRIu64, st.records, n);
	CHECK(pcap_dump_get_stats(plain, &st, sizeof(st)) == PCAP_ERROR,
	    "no statistics for a plain dumper");
	pcap_dump_close(d);
	pcap_dump_close(plain);
	pcap_close(p);
	fprintf(stderr, "mixed: %" PRIu64 " records\n", n);
	return (failures != 0);
}


static int
readfile(const char *fname)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned long n;
	int r;

	p = pcap_open_offline(fname, errbuf);
	if (p == NULL) {
		printf("open error: %s\n", errbuf);
		return (2);
	}
	n = 0;
	while ((r = pcap_next_ex(p, &h, &data)) == 1)
		n++;
	printf("%lu\n", n);
	if (r != PCAP_ERROR_BREAK) {
		printf("read error: %s\n", pcap_geterr(p));
		pcap_close(p);
		return (2);
	}
	pcap_close(p);
	return (0);
}

/* xorshift: deterministic incompressible bytes. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng);
}

static int
randomfile(int argc, char **argv)
{
	pcap_t *p;
	pcap_dumper_t *d;
	pcap_dump_options_t *o;
	struct pcap_pkthdr h;
	struct pcap_dump_stats st;
	u_char pkt[1504];
	size_t bs, i, j;
	unsigned long npkt;
	uint64_t allowed;

	if (argc < 6)
		return (2);
	bs = strtoul(argv[4], NULL, 0);
	npkt = strtoul(argv[5], NULL, 0);
	p = pcap_open_dead(DLT_EN10MB, 65535);
	o = make_opts(argv[3], bs);
	d = pcap_dump_open_with_options(p, argv[2], o);
	pcap_dump_options_free(o);
	if (d == NULL) {
		fprintf(stderr, "open: %s\n", pcap_geterr(p));
		return (1);
	}
	memset(&h, 0, sizeof(h));
	for (i = 0; i < npkt; i++) {
		for (j = 0; j < sizeof(pkt); j += 8) {
			uint64_t v = next_rand();
			memcpy(pkt + j, &v, 8);
		}
		h.ts.tv_sec = (time_t)i;
		h.caplen = h.len = 1500;
		pcap_dump((u_char *)d, &h, pkt);
	}
	CHECK(pcap_dump_flush(d) == 0, "flush");
	CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "stats");
	CHECK(st.records == npkt, "records");
	/*
	 * The adaptive skip: after 4 blocks that did not compress, only
	 * every 16th block is given to the codec, the others are stored;
	 * it is decided from the results of blocks 4 earlier (so that
	 * blocks compressed in parallel skip alike), so 8 blocks go by
	 * before the skipping starts.
	 */
	if (strcmp(argv[3], "none") != 0)
		CHECK(st.blocks_stored + 8 + st.blocks / 16 + 1 >= st.blocks,
		    "%" PRIu64 " of %" PRIu64 " blocks stored",
		    st.blocks_stored, st.blocks);
	/*
	 * Stored blocks cost only container bytes: at most 64 per block
	 * plus 5 per 64 KiB (deflate stored blocks) and the lzop header.
	 */
	allowed = st.bytes_in + st.blocks * 64 + st.bytes_in / 65535 * 5 + 64;
	CHECK(st.bytes_out <= allowed, "bytes_out %" PRIu64 " > %" PRIu64,
	    st.bytes_out, allowed);
	fprintf(stderr, "random: in %" PRIu64 " out %" PRIu64 " blocks %"
	    PRIu64 "\n", st.bytes_in, st.bytes_out, st.blocks);
	pcap_dump_close(d);
	pcap_close(p);
	return (failures != 0);
}

static int
full(const char *spec)
{
	pcap_t *p;
	pcap_dumper_t *d;
	pcap_dump_options_t *o;
	struct pcap_pkthdr h;
	struct pcap_dump_stats st;
	u_char pkt[200];
	const char *e;
	int i;

	p = pcap_open_dead(DLT_EN10MB, 65535);
	o = make_opts(spec, 4096);
	d = pcap_dump_open_with_options(p, "/dev/full", o);
	pcap_dump_options_free(o);
	if (d == NULL) {
		fprintf(stderr, "open: %s\n", pcap_geterr(p));
		pcap_close(p);
		return (1);
	}
	memset(&h, 0, sizeof(h));
	memset(pkt, 0x5a, sizeof(pkt));
	h.caplen = h.len = sizeof(pkt);
	for (i = 0; i < 1000; i++)
		pcap_dump((u_char *)d, &h, pkt);
	CHECK(!ferror(pcap_dump_file(d)), "the FILE error flag stays clear");
	CHECK(pcap_dump_flush(d) == -1, "flush reports the error");
	CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == 0, "stats");
	CHECK(st.error == ENOSPC, "error %d", st.error);
	CHECK(st.records == 1000, "records %" PRIu64, st.records);
	CHECK(st.records_lost == 1000, "lost %" PRIu64, st.records_lost);
	e = pcap_dump_geterr(d);
	CHECK(e != NULL && strstr(e, "No space") != NULL, "text %s",
	    e != NULL ? e : "(null)");
	/* Still sticky, still counted. */
	pcap_dump((u_char *)d, &h, pkt);
	CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == 0 &&
	    st.records_lost == 1001, "lost after the error");
	CHECK(fclose(pcap_dump_file(d)) == EOF, "close reports the error");
	pcap_close(p);
	return (failures != 0);
}

static void
expect_spec_error(const char *spec, const char *text)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;

	o = pcap_dump_options_create(errbuf);
	errbuf[0] = '\0';
	CHECK(pcap_dump_options_set_compression(o, spec, errbuf) == PCAP_ERROR,
	    "spec \"%s\" accepted", spec);
	CHECK(strstr(errbuf, text) != NULL, "spec \"%s\": \"%s\" lacks \"%s\"",
	    spec, errbuf, text);
	pcap_dump_options_free(o);
}

static int
errors(void)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_dump_options_t *o;
	pcap_t *p;
	pcap_dumper_t *d;
	struct pcap_dump_stats st;
	uint64_t small[2];

	expect_spec_error("foo", "unknown compression \"foo\"");
	expect_spec_error("", "unknown compression");
	expect_spec_error("zstd:99", "out of range for zstd");
	expect_spec_error("zstd:20", "out of range for zstd");
	expect_spec_error("zstd:-101", "out of range for zstd (-100..19)");
	expect_spec_error("gzip:10", "out of range for gzip");
	expect_spec_error("lz4:13", "out of range for lz4");
	expect_spec_error("lz4:", "invalid compression level");
	expect_spec_error("gzip:x", "invalid compression level");
	expect_spec_error("gzip:1x", "invalid compression level");
	expect_spec_error("none:1", "takes no level");
	o = pcap_dump_options_create(errbuf);
	CHECK(pcap_dump_options_set_block_size(o, 100, errbuf) == PCAP_ERROR &&
	    strstr(errbuf, "out of range") != NULL, "tiny block: %s", errbuf);
	CHECK(pcap_dump_options_set_block_size(o, (size_t)1 << 30, errbuf) ==
	    PCAP_ERROR, "huge block");
	CHECK(pcap_dump_options_set_block_size(o, 65536, errbuf) == 0,
	    "64 KiB block: %s", errbuf);
	CHECK(pcap_dump_options_set_compression(o, NULL, errbuf) == 0,
	    "default codec: %s", errbuf);
	CHECK(pcap_dump_options_set_compression(o, "default", errbuf) == 0,
	    "\"default\": %s", errbuf);
	pcap_dump_options_free(o);

	/* A plain dumper: NULL options; no stats, no error text. */
	p = pcap_open_dead(DLT_EN10MB, 65535);
	d = pcap_dump_open_with_options(p, "/dev/null", NULL);
	CHECK(d != NULL, "plain open: %s", pcap_geterr(p));
	if (d != NULL) {
		CHECK(pcap_dump_get_stats(d, &st, sizeof(st)) == PCAP_ERROR,
		    "stats of a plain dumper");
		CHECK(pcap_dump_geterr(d) == NULL, "geterr of a plain dumper");
		pcap_dump_close(d);
	}
	/* A short stats structure is filled only as far as it goes. */
	o = make_opts("none", 0);
	d = pcap_dump_open_with_options(p, "/dev/null", o);
	CHECK(d != NULL, "none open: %s", pcap_geterr(p));
	if (d != NULL) {
		small[0] = small[1] = 0xdeadbeef;
		CHECK(pcap_dump_get_stats(d, (struct pcap_dump_stats *)small,
		    sizeof(small[0])) == 0 && small[0] == 0 &&
		    small[1] == 0xdeadbeef, "short stats");
		pcap_dump_close(d);
	}
	d = pcap_dump_open_with_options(p, "/nonexistent/dir/x", o);
	CHECK(d == NULL && strstr(pcap_geterr(p), "/nonexistent/dir/x") != NULL,
	    "open error: %s", pcap_geterr(p));
	pcap_dump_options_free(o);
	pcap_close(p);
	return (failures != 0);
}

static u_char *
slurp(const char *fname, size_t *lenp)
{
	FILE *f;
	u_char *buf;
	size_t size, n;

	f = fopen(fname, "rb");
	if (f == NULL) {
		perror(fname);
		exit(1);
	}
	size = 1 << 20;
	buf = malloc(size);
	n = buf != NULL ? fread(buf, 1, size, f) : 0;
	if (buf == NULL || n == size) {
		fprintf(stderr, "%s: too large\n", fname);
		exit(1);
	}
	fclose(f);
	*lenp = n;
	return (buf);
}

/*
 * Read a savefile held in memory; returns the packet count, the
 * pcap_next_ex() result in *rp and the error text in errbuf.  With
 * ref, the packets are compared to ref's (another such buffer), and
 * *same says whether they all matched, and, unless prefix is set,
 * whether ref has no more.
 */
static unsigned long
read_mem(u_char *buf, size_t len, int *rp, char *errbuf, pcap_t *ref,
    int prefix, int *same)
{
	FILE *f;
	pcap_t *p;
	struct pcap_pkthdr *h, *rh;
	const u_char *data, *rdata;
	unsigned long n;
	int r, rr;

	*same = 1;
	f = fmemopen(buf, len, "rb");
	if (f == NULL) {
		perror("fmemopen");
		exit(1);
	}
	p = pcap_fopen_offline(f, errbuf);
	if (p == NULL) {
		fclose(f);
		*rp = PCAP_ERROR;
		*same = 0;
		return (0);
	}
	n = 0;
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		n++;
		if (ref != NULL) {
			rr = pcap_next_ex(ref, &rh, &rdata);
			if (rr != 1 || rh->caplen != h->caplen ||
			    rh->len != h->len ||
			    rh->ts.tv_sec != h->ts.tv_sec ||
			    rh->ts.tv_usec != h->ts.tv_usec ||
			    memcmp(rdata, data, h->caplen) != 0)
				*same = 0;
		}
	}
	if (ref != NULL && !prefix && pcap_next_ex(ref, &rh, &rdata) == 1)
		*same = 0;
	if (r != PCAP_ERROR_BREAK)
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(p));
	*rp = r;
	pcap_close(p);
	return (n);
}

static int
cuts(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	u_char *buf;
	size_t len, from, to, cut;
	unsigned long want, n;
	pcap_t *ref;
	int r, same, bad;

	if (argc < 7)
		return (2);
	buf = slurp(argv[2], &len);
	from = strtoul(argv[3], NULL, 0);
	to = strtoul(argv[4], NULL, 0);
	want = strtoul(argv[5], NULL, 0);
	bad = 0;
	for (cut = from; cut < to && cut < len; cut++) {
		ref = pcap_open_offline(argv[6], errbuf);
		if (ref == NULL) {
			fprintf(stderr, "%s\n", errbuf);
			return (1);
		}
		errbuf[0] = '\0';
		n = read_mem(buf, cut, &r, errbuf, ref, 1, &same);
		pcap_close(ref);
		if (n < want || !same || r != PCAP_ERROR ||
		    strstr(errbuf, "truncated") == NULL) {
			if (bad++ < 5)
				fprintf(stderr, "FAIL cut at %zu: %lu packets "
				    "(want %lu or more, the plain file's), "
				    "same %d, result %d, \"%s\"\n", cut, n,
				    want, same, r, errbuf);
		}
	}
	fprintf(stderr, "cuts %zu..%zu: %d bad\n", from, to, bad);
	free(buf);
	return (bad != 0);
}

static int
flips(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	u_char *buf;
	size_t len, i;
	pcap_t *ref;
	int r, same, bad, detected, harmless;

	if (argc < 4)
		return (2);
	buf = slurp(argv[2], &len);
	bad = detected = harmless = 0;
	for (i = 0; i < len; i++) {
		ref = pcap_open_offline(argv[3], errbuf);
		if (ref == NULL) {
			fprintf(stderr, "%s\n", errbuf);
			return (1);
		}
		buf[i] ^= 0x55;
		errbuf[0] = '\0';
		(void)read_mem(buf, len, &r, errbuf, ref, 0, &same);
		buf[i] ^= 0x55;
		pcap_close(ref);
		if (r == PCAP_ERROR_BREAK && same) {
			harmless++;	/* e.g. a gzip header's mtime */
			continue;
		}
		if (r == PCAP_ERROR_BREAK ||
		    (i >= 64 && strstr(errbuf, "byte offset") == NULL) ||
		    errbuf[0] == '\0') {
			if (bad++ < 5)
				fprintf(stderr, "FAIL flip at %zu: result %d, "
				    "same %d, \"%s\"\n", i, r, same, errbuf);
		} else
			detected++;
	}
	fprintf(stderr, "flips: %zu bytes, %d detected, %d harmless, %d bad\n",
	    len, detected, harmless, bad);
	free(buf);
	return (bad != 0);
}

static int
udp(int argc, char **argv)
{
	struct sockaddr_in sin;
	unsigned long i, n;
	char msg[64];
	int s;

	if (argc < 4)
		return (2);
	n = strtoul(argv[2], NULL, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)strtoul(argv[3], NULL, 0));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0) {
		perror("socket");
		return (1);
	}
	for (i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "sluice datagram %lu", i);
		if (sendto(s, msg, strlen(msg), 0, (struct sockaddr *)&sin,
		    sizeof(sin)) < 0) {
			perror("sendto");
			return (1);
		}
	}
	close(s);
	return (0);
}

/*
 * pcap_open_offline() gives the streams it opens a buffer of its own;
 * streams a caller passes keep theirs, and stay the caller's when the
 * open fails.
 */
static int
streams(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE], line[64];
	static u_char buf[4 * 1024 * 1024];
	static const char junk[] = "not a savefile\n";
	FILE *f;
	pcap_t *ref;
	size_t len;
	unsigned long n;
	int r, same;

	if (argc < 4)
		return (2);
	f = fopen(argv[2], "rb");
	if (f == NULL) {
		perror(argv[2]);
		return (1);
	}
	len = fread(buf, 1, sizeof(buf), f);
	CHECK(len > 0 && len < sizeof(buf) && feof(f), "%s: %zu bytes",
	    argv[2], len);
	fclose(f);
	ref = pcap_open_offline(argv[2], errbuf);
	CHECK(ref != NULL, "pcap_open_offline: %s", errbuf);
	if (ref == NULL)
		return (1);
	n = read_mem(buf, len, &r, errbuf, ref, 0, &same);
	CHECK(r == PCAP_ERROR_BREAK, "fmemopen stream: %s", errbuf);
	CHECK(same, "fmemopen stream and pcap_open_offline() differ");
	pcap_close(ref);
	printf("%lu packets the same both ways\n", n);

	f = fopen(argv[3], "w+b");
	if (f == NULL) {
		perror(argv[3]);
		return (1);
	}
	CHECK(fputs(junk, f) >= 0 && fflush(f) == 0, "writing %s", argv[3]);
	rewind(f);
	CHECK(pcap_fopen_offline(f, errbuf) == NULL,
	    "junk accepted by pcap_fopen_offline()");
	rewind(f);
	CHECK(fgets(line, sizeof(line), f) != NULL && strcmp(line, junk) == 0,
	    "the refused stream no longer reads back what it holds");
	CHECK(fclose(f) == 0, "the refused stream does not close cleanly");
	CHECK(pcap_open_offline(argv[3], errbuf) == NULL &&
	    strstr(errbuf, "unknown file format") != NULL,
	    "pcap_open_offline() of junk: %s", errbuf);
	printf("junk refused both ways, its stream intact\n");
	return (failures == 0 ? 0 : 1);
}

/*
 * Where each block of a pcapng file ends, read from the blocks' own
 * lengths, for tests that cut such a file at block boundaries.
 */
static int
blocks(const char *path)
{
	u_char hdr[12];
	uint32_t len;
	long off = 0;
	int big = 0;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return (1);
	}
	while (fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr)) {
		if (memcmp(hdr, "\n\r\r\n", 4) == 0)
			big = memcmp(hdr + 8, "\x1a\x2b\x3c\x4d", 4) == 0;
		len = big ?
		    (uint32_t)hdr[4] << 24 | hdr[5] << 16 | hdr[6] << 8 | hdr[7] :
		    (uint32_t)hdr[7] << 24 | hdr[6] << 16 | hdr[5] << 8 | hdr[4];
		if (len < sizeof(hdr) || len % 4 != 0)
			break;
		off += (long)len;
		printf("%ld\n", off);
		if (fseek(f, off, SEEK_SET) != 0)
			break;
	}
	fclose(f);
	return (0);
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		return (2);
	if (strcmp(argv[1], "write") == 0)
		return (copy(argc, argv, 0));
	if (strcmp(argv[1], "fwrite") == 0)
		return (copy(argc, argv, 1));
	if (strcmp(argv[1], "append") == 0)
		return (copy(argc, argv, 2));
	if (strcmp(argv[1], "mixed") == 0)
		return (mixed(argc, argv));
	if (strcmp(argv[1], "read") == 0 && argc > 2)
		return (readfile(argv[2]));
	if (strcmp(argv[1], "random") == 0)
		return (randomfile(argc, argv));
	if (strcmp(argv[1], "full") == 0 && argc > 2)
		return (full(argv[2]));
	if (strcmp(argv[1], "errors") == 0)
		return (errors());
	if (strcmp(argv[1], "cuts") == 0)
		return (cuts(argc, argv));
	if (strcmp(argv[1], "flips") == 0)
		return (flips(argc, argv));
	if (strcmp(argv[1], "udp") == 0)
		return (udp(argc, argv));
	if (strcmp(argv[1], "streams") == 0)
		return (streams(argc, argv));
	if (strcmp(argv[1], "blocks") == 0 && argc > 2)
		return (blocks(argv[2]));
	return (2);
}
