/*
 * sluice-gen -- generate numbered test frames into a pcap file or onto a
 * network interface.
 *
 * The frame types follow the experiments in the papers the project
 * started from (see shared/README.md): fixed and random payloads in
 * minimum and maximum sized Ethernet frames, Slammer-like UDP packets and
 * HTTP GET requests.  Every frame carries the sluice sequence marker
 * (magic "SLSQ" + 32-bit sequence number, see sluice-seq.h for where), so
 * that sluice-seqcheck can tell exactly which frames a capture lost,
 * duplicated or reordered.
 *
 * Frame sizes are captured sizes, without the 4-byte FCS the capture
 * never sees: fixed64/random64 frames are 60 bytes (64 on the wire),
 * fixed1518/random1518 frames are 1514 bytes (1518 on the wire, the
 * largest frame an MTU of 1500 allows); slammer frames are 418 bytes
 * (a 404-byte IPv4 datagram, the size the papers quote), http frames vary.
 * --vlan adds 4 bytes to each.
 *
 * Output is a function of the options alone (type, seed, first sequence
 * number, addresses, count): the frames written with --out are byte for
 * byte the frames sent with --iface, so a capture can be compared with a
 * file written by the same command line.  Timestamps in the file are
 * synthetic (a fixed start plus 1/rate per frame, 1 us when --rate is 0)
 * so that equal options give identical files.
 *
 * --erspan TYPE sends every frame as the inner frame of an ERSPAN type
 * I, II or III packet (outer Ethernet/IPv4/GRE built by erspan-craft.c,
 * which must be compiled in: cc -o sluice-gen sluice-gen.c erspan-craft.c).
 * The inner frame, marker included, is unchanged, and the GRE sequence
 * number (types II and III) equals the frame's sequence number.  An
 * encapsulated 1514-byte frame needs an MTU above 1500.
 *
 * --replay FILE sends (or writes) the frames of a pcap file instead, in
 * a loop, each carrying the marker: IPv4 TCP frames get it as their first
 * TCP option, in place of the first 12 bytes of their options (a Linux
 * segment's NOP, NOP, timestamp: frame length and payload unchanged) or
 * inserted when they have fewer; IPv4 UDP frames get it at the start of
 * their payload (inserted, or rewritten when already there).  Checksums
 * are recomputed, so a loopback trace's partial ones become valid, and
 * all-zero Ethernet addresses (a loopback trace's) become --src-mac and
 * --dst-mac.  Other frames cannot carry a marker and are skipped, and
 * how many is reported.  Replaying a file this program wrote gives the
 * same frames back.
 *
 * Only Linux is supported for --iface (AF_PACKET with sendmmsg()).
 */
#define _GNU_SOURCE	/* sendmmsg(), struct mmsghdr */

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <net/if.h>
#include <netpacket/packet.h>
#include <sys/socket.h>

#include "erspan-craft.h"
#include "sluice-seq.h"

#define PROG		"sluice-gen"

#include "gen-util.h"
/* Room for the largest inner frame plus its encapsulation. */
#define FRAME_MAX	2048
#define BATCH_MAX	64	/* frames per sendmmsg() call */
#define PCAP_SNAPLEN	262144
#define PCAP_TS_BASE	1700000000U	/* start time of --out files */
/* A replayed frame with its marker, leaving room for encapsulation. */
#define REPLAY_FRAME_MAX	(FRAME_MAX - 128)
#define REPLAY_BYTES_MAX	(1024UL * 1024 * 1024)	/* whole trace in memory */

enum frame_type {
	FT_FIXED64,
	FT_FIXED1518,
	FT_RANDOM64,
	FT_RANDOM1518,
	FT_SLAMMER,
	FT_HTTP,
	FT_REPLAY	/* --replay, not a --type */
};

static const struct {
	const char *name;
	enum frame_type type;
	size_t len;		/* captured, untagged; 0 = varies */
	const char *what;
} frame_types[] = {
	{ "fixed64",	FT_FIXED64,	60,	"64-byte frame, same bytes every frame" },
	{ "fixed1518",	FT_FIXED1518,	1514,	"1518-byte frame, same bytes every frame" },
	{ "random64",	FT_RANDOM64,	60,	"64-byte frame, random addresses, ports, payload" },
	{ "random1518",	FT_RANDOM1518,	1514,	"1518-byte frame, random addresses, ports, payload" },
	{ "slammer",	FT_SLAMMER,	418,	"418-byte UDP to port 1434, Slammer-like payload" },
	{ "http",	FT_HTTP,	0,	"TCP/80 HTTP GET request with varied headers" },
};
#define N_FRAME_TYPES	(sizeof(frame_types) / sizeof(frame_types[0]))

struct gen {
	enum frame_type type;
	size_t len;		/* fixed frame length, 0 for http */
	uint64_t rng;
	unsigned char src_mac[6];
	unsigned char dst_mac[6];
	int src_mac_set;	/* given by the user: never randomised */
	int dst_mac_set;
	int vlan;		/* -1: untagged */
	unsigned char slammer_body[512];
	unsigned char fixed[FRAME_MAX];	/* template of the fixed types */
	size_t fixed_len;
	int erspan;		/* 0: none, else the ERSPAN type */
	struct erspan_craft es;
	unsigned char inner[FRAME_MAX];	/* before encapsulation */
	/* --replay: the trace's frames, marker in place with number 0 */
	unsigned char *rp_data;
	struct replay_frame *rp;
	size_t rp_n;
	uint32_t rp_seq0;	/* the first frame's number */
};

struct replay_frame {
	size_t off;		/* into rp_data */
	size_t len;
	size_t seq_off;		/* sequence number bytes */
	size_t cs_off;		/* L4 checksum, 0 = none (UDP without) */
	uint32_t psum;		/* checksum sum with number 0, not folded */
	int udp;
};

static volatile sig_atomic_t stop_requested;

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f,
"Usage: " PROG " --type TYPE --count N [--rate PPS] [--seed S] [--seq-start N]\n"
"                  [--src-mac MAC] [--dst-mac MAC] [--vlan ID]\n"
"                  [--erspan TYPE [--erspan-session ID]] --out FILE\n"
"       " PROG " --type TYPE {--count N | --duration S} [--rate PPS] [--seed S]\n"
"                  [--seq-start N] [--src-mac MAC] [--dst-mac MAC] [--vlan ID]\n"
"                  [--erspan TYPE [--erspan-session ID]] [--threads N] --iface IF\n"
"       " PROG " --replay FILE ... (as above, in place of --type)\n"
"\n"
"  --type TYPE      frame type (below)\n"
"  --replay FILE    the frames of pcap FILE (Ethernet, whole frames), in a\n"
"                   loop, each IPv4 TCP/UDP frame given a sequence number\n"
"                   (others are skipped); all-zero addresses are replaced\n"
"                   by --src-mac and --dst-mac\n"
"  --count N        number of frames, k/M/G suffixes allowed (required\n"
"                   with --out)\n"
"  --duration S     with --iface: stop after S seconds (decimal allowed)\n"
"  --rate PPS       frames per second, k/M/G suffixes allowed; 0 (default)\n"
"                   sends as fast as possible\n"
"  --seed S         seed of the pseudo-random parts (default 1)\n"
"  --seq-start N    sequence number of the first frame (default 0)\n"
"  --src-mac MAC, --dst-mac MAC\n"
"                   Ethernet addresses (default 02:00:00:00:00:01 and\n"
"                   02:00:00:00:00:02; random types randomise unset ones)\n"
"  --vlan ID        add an 802.1Q tag with VLAN ID (0-4095)\n"
"  --erspan TYPE    wrap every frame in ERSPAN type 1, 2 or 3 (GRE over\n"
"                   IPv4 10.0.0.1 > 10.0.0.2)\n"
"  --erspan-session ID\n"
"                   ERSPAN session ID, 0-1023 (default 1; types 2, 3)\n"
"  --out FILE       write a pcap file (\"-\" = standard output)\n"
"  --iface IF       send on interface IF (AF_PACKET, needs CAP_NET_RAW)\n"
"  --threads N      with --iface: N sending threads (1-64, default 1), each\n"
"                   its own socket, every N-th number and 1/N of the rate;\n"
"                   more frames/s where cores are free (frames then arrive\n"
"                   interleaved, and random ones differ from --out's)\n"
"\n"
"Types:\n");
	for (i = 0; i < N_FRAME_TYPES; i++)
		fprintf(f, "  %-12s %s\n", frame_types[i].name,
		    frame_types[i].what);
}

static int
parse_mac(const char *s, unsigned char mac[6])
{
	int i, nd;
	unsigned int v;

	for (i = 0; i < 6; i++) {
		v = 0;
		for (nd = 0; nd < 2; nd++) {
			char c = *s;

			if (c >= '0' && c <= '9')
				v = v * 16 + (unsigned int)(c - '0');
			else if (c >= 'a' && c <= 'f')
				v = v * 16 + (unsigned int)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				v = v * 16 + (unsigned int)(c - 'A' + 10);
			else
				break;
			s++;
		}
		if (nd == 0)
			return (-1);
		mac[i] = (unsigned char)v;
		if (i < 5) {
			if (*s != ':')
				return (-1);
			s++;
		}
	}
	return (*s == '\0' ? 0 : -1);
}

/*
 * xorshift64*: small, fast and, unlike rand(), the same on every libc, so
 * a seed names the same frames everywhere.
 */
static uint64_t
rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return (x * 0x2545F4914F6CDD1DULL);
}

static uint64_t
rng_seed(uint64_t seed)
{
	/* splitmix64 step: spreads small seeds, and never yields 0 here. */
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (z != 0 ? z : 0x9E3779B97F4A7C15ULL);
}

static uint32_t
rng_u32(struct gen *g)
{
	return ((uint32_t)(rng_next(&g->rng) >> 32));
}

static unsigned int
rng_below(struct gen *g, unsigned int n)
{
	return ((unsigned int)(((uint64_t)rng_u32(g) * n) >> 32));
}

static void
rng_fill(struct gen *g, unsigned char *p, size_t n)
{
	uint64_t r;
	size_t i;

	while (n >= 8) {
		r = rng_next(&g->rng);
		for (i = 0; i < 8; i++)
			p[i] = (unsigned char)(r >> (56 - 8 * i));
		p += 8;
		n -= 8;
	}
	if (n > 0) {
		r = rng_next(&g->rng);
		for (i = 0; i < n; i++)
			p[i] = (unsigned char)(r >> (56 - 8 * i));
	}
}

static uint32_t
csum_add(uint32_t sum, const unsigned char *p, size_t n)
{
	while (n > 1) {
		sum += (uint32_t)p[0] << 8 | p[1];
		p += 2;
		n -= 2;
	}
	if (n)
		sum += (uint32_t)p[0] << 8;
	return (sum);
}

static unsigned int
csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (~sum & 0xffff);
}

static void
random_mac(struct gen *g, unsigned char mac[6])
{
	rng_fill(g, mac, 6);
	/* A source address is never a group address; keep dst unicast too. */
	mac[0] &= 0xfe;
}

/*
 * Ethernet (+ optional 802.1Q tag) header.  Returns its length.
 */
static size_t
put_eth(const struct gen *g, unsigned char *p, const unsigned char *dst,
    const unsigned char *src, unsigned int etype)
{
	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	if (g->vlan >= 0) {
		put16(p + 12, 0x8100);
		put16(p + 14, (unsigned int)g->vlan);
		put16(p + 16, etype);
		return (18);
	}
	put16(p + 12, etype);
	return (14);
}

static void
put_ipv4(unsigned char *p, size_t total_len, unsigned int id, int df,
    unsigned int ttl, unsigned int proto, uint32_t src, uint32_t dst)
{
	p[0] = 0x45;
	p[1] = 0;
	put16(p + 2, (unsigned int)total_len);
	put16(p + 4, id);
	put16(p + 6, df ? 0x4000 : 0);
	p[8] = (unsigned char)ttl;
	p[9] = (unsigned char)proto;
	put16(p + 10, 0);
	put32(p + 12, src);
	put32(p + 16, dst);
	put16(p + 10, csum_fold(csum_add(0, p, 20)));
}

/* TCP/UDP checksum over the IPv4 pseudo header and the segment. */
static unsigned int
l4_csum(const unsigned char *ip, const unsigned char *l4, size_t l4_len)
{
	unsigned char ph[4];
	uint32_t sum;

	sum = csum_add(0, ip + 12, 8);
	ph[0] = 0;
	ph[1] = ip[9];
	put16(ph + 2, (unsigned int)l4_len);
	sum = csum_add(sum, ph, 4);
	sum = csum_add(sum, l4, l4_len);
	return (csum_fold(sum));
}

static size_t
build_udp(struct gen *g, unsigned char *p, size_t frame_len, uint32_t seq)
{
	const unsigned char *dst = g->dst_mac, *src = g->src_mac;
	unsigned char rdst[6], rsrc[6];
	unsigned char *ip, *udp, *pl;
	size_t eh, ip_len, pl_len, i;
	unsigned int sport, dport, id, ttl, cs;
	uint32_t saddr, daddr;
	int random_type, df;

	random_type = (g->type == FT_RANDOM64 || g->type == FT_RANDOM1518);
	if (random_type) {
		/*
		 * Draw every random field even when the user fixed the MACs,
		 * so --src-mac does not change the rest of the frames.
		 */
		random_mac(g, rdst);
		random_mac(g, rsrc);
		if (!g->dst_mac_set)
			dst = rdst;
		if (!g->src_mac_set)
			src = rsrc;
	}
	eh = put_eth(g, p, dst, src, 0x0800);
	frame_len += eh - 14;
	ip = p + eh;
	udp = ip + 20;
	pl = udp + 8;
	ip_len = frame_len - eh;
	pl_len = ip_len - 28;

	switch (g->type) {

	case FT_RANDOM64:
	case FT_RANDOM1518:
		saddr = rng_u32(g);
		daddr = rng_u32(g);
		sport = 1024 + rng_below(g, 65536 - 1024);
		dport = 1 + rng_below(g, 65535);
		id = rng_below(g, 65536);
		ttl = 32 + rng_below(g, 97);
		df = 1;
		rng_fill(g, pl + SLSQ_LEN, pl_len - SLSQ_LEN);
		break;

	case FT_SLAMMER:
		/*
		 * As a network telescope sees the worm: many infected
		 * sources, random targets, UDP to ms-sql-m (1434).  The
		 * payload has the worm's shape that matters for compression
		 * (a 0x04 request byte, then 96 bytes of 0x01, then a body
		 * identical in every packet), not its code: the body is a
		 * fixed pseudo-random block.
		 */
		saddr = rng_u32(g);
		daddr = rng_u32(g);
		sport = 1024 + rng_below(g, 65536 - 1024);
		dport = 1434;
		id = rng_below(g, 65536);
		ttl = 100 + rng_below(g, 28);
		df = 0;
		pl[SLSQ_LEN] = 0x04;
		memset(pl + SLSQ_LEN + 1, 0x01, 96);
		memcpy(pl + SLSQ_LEN + 97, g->slammer_body,
		    pl_len - SLSQ_LEN - 97);
		break;

	default:
		/* fixed: constant addresses and a constant pattern */
		saddr = 0x0a000001;	/* 10.0.0.1 */
		daddr = 0x0a000002;	/* 10.0.0.2 */
		sport = 40000;
		dport = 9;		/* discard */
		id = 0;
		ttl = 64;
		df = 1;
		for (i = SLSQ_LEN; i < pl_len; i++)
			pl[i] = (unsigned char)i;
		break;
	}
	put_ipv4(ip, ip_len, id, df, ttl, 17, saddr, daddr);
	put16(udp, sport);
	put16(udp + 2, dport);
	put16(udp + 4, (unsigned int)(ip_len - 20));
	put16(udp + 6, 0);
	slsq_put(pl, seq);
	if (g->type == FT_FIXED64 || g->type == FT_FIXED1518) {
		/*
		 * No UDP checksum (allowed over IPv4): with one the frames
		 * would differ in two places, not only in the sequence
		 * number, and "fixed" would compress less than in the papers.
		 */
	} else {
		cs = l4_csum(ip, udp, ip_len - 20);
		put16(udp + 6, cs != 0 ? cs : 0xffff);
	}
	return (frame_len);
}

/*
 * HTTP requests: a browser-ish mix of pages, assets, API calls and
 * downloads, so that lengths and header sets vary like real requests.
 */
static const char *const http_hosts[] = {
	"www.example.com", "example.org", "cdn.example.net",
	"api.example.com", "news.example.org", "shop.example.com",
	"static.example.net", "wiki.example.org",
};
static const char *const http_agents[] = {
	"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
	    "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 "
	    "(KHTML, like Gecko) Version/17.5 Safari/605.1.15",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) "
	    "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
	"curl/7.88.1",
	"Wget/1.21.3",
	"python-requests/2.31.0",
	"wrk",
};
static const char *const http_accepts[] = {
	"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
	"image/avif,image/webp,image/png,image/*;q=0.8,*/*;q=0.5",
	"text/css,*/*;q=0.1",
	"application/json",
	"*/*",
};
static const char *const http_langs[] = {
	"en-US,en;q=0.5", "de-DE,de;q=0.9,en;q=0.6", "ja,en-US;q=0.7,en;q=0.3",
	"fr-FR,fr;q=0.8",
};
static const char *const http_words[] = {
	"capture", "ring", "buffer", "snaplen", "gigabit", "lossless",
	"compression", "erspan", "mirror", "telescope", "nginx", "kernel",
};

#define PICK(g, a)	((a)[rng_below((g), sizeof(a) / sizeof((a)[0]))])

struct sbuf {
	char *p;
	size_t len, size;
	int overflow;
};

static void
sb_printf(struct sbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->p + sb->len, sb->size - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sb->size - sb->len)
		sb->overflow = 1;
	else
		sb->len += (size_t)n;
}

static size_t
http_request(struct gen *g, char *buf, size_t size)
{
	struct sbuf sb;
	const char *host;
	unsigned int kind;

	sb.p = buf;
	sb.len = 0;
	sb.size = size;
	sb.overflow = 0;
	host = PICK(g, http_hosts);
	kind = rng_below(g, 10);
	switch (kind) {
	case 0:
		sb_printf(&sb, "GET / HTTP/1.1\r\n");
		break;
	case 1:
		sb_printf(&sb, "GET /index.html HTTP/1.1\r\n");
		break;
	case 2:
		sb_printf(&sb, "GET /news/%u/%02u/article-%u.html HTTP/1.1\r\n",
		    2016 + rng_below(g, 11), 1 + rng_below(g, 12),
		    rng_below(g, 100000));
		break;
	case 3:
		sb_printf(&sb, "GET /search?q=%s+%s&page=%u HTTP/1.1\r\n",
		    PICK(g, http_words), PICK(g, http_words),
		    1 + rng_below(g, 20));
		break;
	case 4:
		sb_printf(&sb, "GET /images/%s-%u.%s HTTP/1.1\r\n",
		    PICK(g, http_words), rng_below(g, 5000),
		    rng_below(g, 2) ? "png" : "jpg");
		break;
	case 5:
		sb_printf(&sb, "GET /static/%s.%08x.%s HTTP/1.1\r\n",
		    rng_below(g, 2) ? "app" : "vendor", rng_u32(g),
		    rng_below(g, 2) ? "js" : "css");
		break;
	case 6:
		sb_printf(&sb, "GET /api/v%u/items/%u?fields=id,name,price HTTP/1.1\r\n",
		    1 + rng_below(g, 3), rng_below(g, 1000000));
		break;
	case 7:
		sb_printf(&sb, "GET /products/%u?utm_source=newsletter&utm_medium=email&utm_campaign=%s HTTP/1.1\r\n",
		    rng_below(g, 100000), PICK(g, http_words));
		break;
	case 8:
		sb_printf(&sb, "GET /download/%s-%u.%u.%u.tar.gz HTTP/1.1\r\n",
		    PICK(g, http_words), rng_below(g, 5), rng_below(g, 20),
		    rng_below(g, 10));
		break;
	default:
		sb_printf(&sb, "GET /favicon.ico HTTP/1.1\r\n");
		break;
	}
	sb_printf(&sb, "Host: %s\r\n", host);
	sb_printf(&sb, "User-Agent: %s\r\n", PICK(g, http_agents));
	sb_printf(&sb, "Accept: %s\r\n", PICK(g, http_accepts));
	if (rng_below(g, 4) != 0)
		sb_printf(&sb, "Accept-Language: %s\r\n", PICK(g, http_langs));
	if (rng_below(g, 5) != 0)
		sb_printf(&sb, "Accept-Encoding: gzip, deflate%s\r\n",
		    rng_below(g, 2) ? ", br" : "");
	if (rng_below(g, 2) != 0)
		sb_printf(&sb, "Referer: http://%s/\r\n", host);
	if (rng_below(g, 3) == 0)
		sb_printf(&sb, "Cookie: session=%08x%08x; lang=%s\r\n",
		    rng_u32(g), rng_u32(g), rng_below(g, 2) ? "en" : "de");
	if (rng_below(g, 6) == 0)
		sb_printf(&sb, "If-Modified-Since: %s, %02u Mar 2024 %02u:%02u:%02u GMT\r\n",
		    rng_below(g, 2) ? "Mon" : "Thu", 1 + rng_below(g, 28),
		    rng_below(g, 24), rng_below(g, 60), rng_below(g, 60));
	sb_printf(&sb, "Connection: keep-alive\r\n\r\n");
	/* The pieces above are bounded far below the buffer size. */
	return (sb.overflow ? 0 : sb.len);
}

static size_t
build_http(struct gen *g, unsigned char *p, uint32_t seq)
{
	unsigned char *ip, *tcp, *opt;
	size_t eh, req_len, ip_len;
	uint32_t saddr, daddr;
	unsigned int cs;

	eh = put_eth(g, p, g->dst_mac, g->src_mac, 0x0800);
	ip = p + eh;
	tcp = ip + 20;
	opt = tcp + 20;
	req_len = http_request(g, (char *)(opt + SLSQ_TCPOPT_LEN),
	    1500 - 20 - 20 - SLSQ_TCPOPT_LEN);
	if (req_len == 0)
		return (0);
	ip_len = 20 + 20 + SLSQ_TCPOPT_LEN + req_len;

	/* Clients from a /16, a handful of servers. */
	saddr = 0xac100000 | rng_below(g, 65536);	/* 172.16/16 */
	daddr = 0xc0000200 | (1 + rng_below(g, 8));	/* 192.0.2.1-8 */
	put_ipv4(ip, ip_len, rng_below(g, 65536), 1, 64, 6, saddr, daddr);

	/* The Linux ephemeral port range. */
	put16(tcp, 32768 + rng_below(g, 28232));
	put16(tcp + 2, 80);
	put32(tcp + 4, rng_u32(g));
	put32(tcp + 8, rng_u32(g));
	tcp[12] = (unsigned char)(((20 + SLSQ_TCPOPT_LEN) / 4) << 4);
	tcp[13] = 0x18;					/* PSH|ACK */
	put16(tcp + 14, 500 + rng_below(g, 1500));
	put16(tcp + 16, 0);
	put16(tcp + 18, 0);
	opt[0] = SLSQ_TCPOPT_KIND;
	opt[1] = SLSQ_TCPOPT_LEN;
	put16(opt + 2, SLSQ_TCPOPT_EXID);
	slsq_put(opt + 4, seq);
	cs = l4_csum(ip, tcp, ip_len - 20);
	put16(tcp + 16, cs);
	return (eh + ip_len);
}

/*
 * ERSPAN hook: with --erspan, the frame built in g->inner becomes the
 * inner frame of an ERSPAN packet in "out".  The inner frame, and so its
 * marker, stays byte-identical, so sluice-seqcheck finds the marker both
 * in the raw capture (it walks GRE/ERSPAN) and in a decapsulated one
 * (-y ERSPAN / --erspan).  Returns 0 on failure.
 */
static size_t
encap_frame(struct gen *g, uint32_t seq, size_t len, unsigned char *out,
    size_t out_size)
{
	/* A mirror session numbers its packets: use the frame's number. */
	g->es.seq = seq;
	g->es.timestamp = seq;
	return (erspan_craft(&g->es, g->inner, len, out, out_size));
}

/*
 * --replay.  Give the frame at f (len bytes, FRAME_MAX of room) a marker
 * with sequence number 0 and record where it is in *rf.  Returns the new
 * length, 0 when the frame cannot carry a marker (not IPv4 TCP or UDP, a
 * fragment, malformed) or would grow too large.
 */
static size_t
replay_prepare(struct gen *g, unsigned char *f, size_t len,
    struct replay_frame *rf)
{
	static const unsigned char zero[6];
	unsigned char *ip, *l4, *o;
	size_t eh, ihl, ip_len, l4_len, optlen, i, olen, room;
	unsigned int proto;

	if (len < 14)
		return (0);
	/* A loopback trace has no addresses: give it the usual ones. */
	if (g->dst_mac_set || memcmp(f, zero, 6) == 0)
		memcpy(f, g->dst_mac, 6);
	if (g->src_mac_set || memcmp(f + 6, zero, 6) == 0)
		memcpy(f + 6, g->src_mac, 6);
	eh = 14;
	if (slsq_get16(f + 12) == 0x8100)
		eh = 18;
	if (len < eh + 20 || slsq_get16(f + eh - 2) != 0x0800)
		return (0);
	ip = f + eh;
	ihl = (size_t)(ip[0] & 0x0f) * 4;
	ip_len = slsq_get16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < 20 || ip_len < ihl ||
	    eh + ip_len > len || (slsq_get16(ip + 6) & 0x3fff) != 0)
		return (0);
	proto = ip[9];
	l4 = ip + ihl;
	l4_len = ip_len - ihl;
	if (proto == 6) {
		if (l4_len < 20)
			return (0);
		optlen = (size_t)(l4[12] >> 4) * 4;
		if (optlen < 20 || optlen > l4_len)
			return (0);
		optlen -= 20;
		o = l4 + 20;
		if (optlen >= SLSQ_TCPOPT_LEN) {
			/*
			 * The marker takes the first 12 bytes; an option
			 * that reaches beyond them becomes NOPs, so the list
			 * stays well formed.
			 */
			for (i = 0; i < optlen && o[i] != 0; i += olen) {
				olen = 1;
				if (o[i] == 1)
					continue;
				olen = i + 1 < optlen ? o[i + 1] : 0;
				if (olen < 2 || i + olen > optlen)
					olen = optlen - i;
				if (i < SLSQ_TCPOPT_LEN &&
				    i + olen > SLSQ_TCPOPT_LEN)
					memset(o + SLSQ_TCPOPT_LEN, 1,
					    i + olen - SLSQ_TCPOPT_LEN);
			}
		} else {
			/* No room: insert the option, the frame grows. */
			room = SLSQ_TCPOPT_LEN;
			if (eh + ip_len + room > REPLAY_FRAME_MAX)
				return (0);
			memmove(o + room, o, l4_len - 20);
			l4[12] = (unsigned char)((((20 + optlen + room) / 4) << 4) |
			    (l4[12] & 0x0f));
			ip_len += room;
			l4_len += room;
		}
		o[0] = SLSQ_TCPOPT_KIND;
		o[1] = SLSQ_TCPOPT_LEN;
		put16(o + 2, SLSQ_TCPOPT_EXID);
		slsq_put(o + 4, 0);
		rf->seq_off = (size_t)(o + 8 - f);
		rf->cs_off = (size_t)(l4 + 16 - f);
	} else if (proto == 17) {
		if (l4_len < 8 || slsq_get16(l4 + 4) != l4_len)
			return (0);
		if (l4_len < 8 + SLSQ_LEN || !slsq_is_magic(l4 + 8)) {
			room = SLSQ_LEN;
			if (eh + ip_len + room > REPLAY_FRAME_MAX)
				return (0);
			memmove(l4 + 8 + room, l4 + 8, l4_len - 8);
			ip_len += room;
			l4_len += room;
			put16(l4 + 4, (unsigned int)l4_len);
		}
		slsq_put(l4 + 8, 0);
		rf->seq_off = (size_t)(l4 + 12 - f);
		/* Over IPv4 a UDP checksum of 0 means none: keep it so. */
		rf->cs_off = slsq_get16(l4 + 6) != 0 ? (size_t)(l4 + 6 - f) : 0;
	} else
		return (0);
	if (ip_len != slsq_get16(ip + 2)) {
		/* Grown: a trailer (Ethernet padding) was dropped. */
		len = eh + ip_len;
		put16(ip + 2, (unsigned int)ip_len);
		put16(ip + 10, 0);
		put16(ip + 10, csum_fold(csum_add(0, ip, ihl)));
	}
	rf->psum = 0;
	rf->udp = (proto == 17);
	if (rf->cs_off != 0) {
		f[rf->cs_off] = 0;
		f[rf->cs_off + 1] = 0;
		rf->psum = csum_add(csum_add(proto + (uint32_t)l4_len,
		    ip + 12, 8), l4, l4_len);
	}
	rf->len = len;
	return (len);
}

/*
 * Read the frames of the pcap file "path" for --replay.  Returns 0, or -1
 * with a message.
 */
static int
replay_load(struct gen *g, const char *path)
{
	unsigned char hdr[24], rec[16];
	unsigned char frame[FRAME_MAX];
	struct replay_frame rf, *nrp;
	unsigned char *nd;
	size_t cap_rp, cap_data, used, len, n_in, got;
	uint32_t magic, caplen, wirelen, linktype;
	int swap;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, PROG ": cannot open %s: %s\n", path,
		    strerror(errno));
		return (-1);
	}
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr)) {
		fprintf(stderr, PROG ": %s: not a pcap file (too short)\n", path);
		goto fail;
	}
	memcpy(&magic, hdr, 4);
	swap = (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1);
	if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d && !swap) {
		fprintf(stderr, PROG ": %s: not a pcap file%s\n", path,
		    magic == 0x0a0d0d0a ?
		    " (pcapng: convert it with editcap -F pcap)" : "");
		goto fail;
	}
	memcpy(&linktype, hdr + 20, 4);
	if (swap)
		linktype = __builtin_bswap32(linktype);
	if ((linktype & 0xffff) != 1) {
		fprintf(stderr, PROG ": %s: link type %u, replay needs Ethernet (1)\n",
		    path, linktype & 0xffff);
		goto fail;
	}
	cap_rp = cap_data = used = n_in = 0;
	while ((got = fread(rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		n_in++;
		memcpy(&caplen, rec + 8, 4);
		memcpy(&wirelen, rec + 12, 4);
		if (swap) {
			caplen = __builtin_bswap32(caplen);
			wirelen = __builtin_bswap32(wirelen);
		}
		if (caplen != wirelen) {
			fprintf(stderr, PROG ": %s: frame %zu was cut to %u of %u bytes; replay needs whole frames (capture with -s 0)\n",
			    path, n_in, caplen, wirelen);
			goto fail;
		}
		if (caplen > REPLAY_FRAME_MAX) {
			fprintf(stderr, PROG ": %s: frame %zu has %u bytes, more than %d\n",
			    path, n_in, caplen, REPLAY_FRAME_MAX);
			goto fail;
		}
		if (fread(frame, 1, caplen, f) != caplen) {
			fprintf(stderr, PROG ": %s: truncated in frame %zu\n",
			    path, n_in);
			goto fail;
		}
		len = replay_prepare(g, frame, caplen, &rf);
		if (len == 0)
			continue;
		if (used + len > REPLAY_BYTES_MAX) {
			fprintf(stderr, PROG ": %s: more than %lu bytes of frames\n",
			    path, REPLAY_BYTES_MAX);
			goto fail;
		}
		if (g->rp_n == cap_rp) {
			cap_rp = cap_rp ? 2 * cap_rp : 1024;
			nrp = realloc(g->rp, cap_rp * sizeof(*nrp));
			if (nrp == NULL)
				goto nomem;
			g->rp = nrp;
		}
		if (used + len > cap_data) {
			cap_data = cap_data ? 2 * cap_data : 1024 * 1024;
			nd = realloc(g->rp_data, cap_data);
			if (nd == NULL)
				goto nomem;
			g->rp_data = nd;
		}
		memcpy(g->rp_data + used, frame, len);
		rf.off = used;
		g->rp[g->rp_n++] = rf;
		used += len;
	}
	if (ferror(f)) {
		fprintf(stderr, PROG ": reading %s: %s\n", path, strerror(errno));
		goto fail;
	}
	if (got != 0) {
		fprintf(stderr, PROG ": %s: truncated record header after frame %zu\n",
		    path, n_in);
		goto fail;
	}
	fclose(f);
	if (g->rp_n == 0) {
		fprintf(stderr, PROG ": %s: none of its %zu frames is IPv4 TCP or UDP; nothing to replay\n",
		    path, n_in);
		return (-1);
	}
	/* Never silently: the receiver counts only the frames sent. */
	if (g->rp_n < n_in)
		fprintf(stderr, PROG ": %s: skipped %zu of %zu frames (not IPv4 TCP or UDP, they cannot carry a sequence number)\n",
		    path, n_in - g->rp_n, n_in);
	return (0);

nomem:
	fprintf(stderr, PROG ": out of memory reading %s\n", path);
fail:
	fclose(f);
	return (-1);
}

/* Frame number "seq" of a replay: the trace's frames in a loop. */
static size_t
replay_build(struct gen *g, uint32_t seq, unsigned char *buf)
{
	const struct replay_frame *rf;
	unsigned int cs;

	rf = &g->rp[(size_t)(seq - g->rp_seq0) % g->rp_n];
	memcpy(buf, g->rp_data + rf->off, rf->len);
	slsq_put(buf + rf->seq_off - 4, seq);
	if (rf->cs_off != 0) {
		cs = csum_fold(rf->psum + (seq >> 16) + (seq & 0xffff));
		/* UDP sends a computed 0 as 0xffff (0 means none). */
		if (cs == 0 && rf->udp)
			cs = 0xffff;
		put16(buf + rf->cs_off, cs);
	}
	return (rf->len);
}

/*
 * Build frame number "seq" into buf (FRAME_MAX bytes).  Returns its
 * length, 0 on an internal error.
 */
static size_t
build_frame(struct gen *g, uint32_t seq, unsigned char *buf)
{
	unsigned char *f;
	size_t len;

	f = g->erspan ? g->inner : buf;
	switch (g->type) {
	case FT_FIXED64:
	case FT_FIXED1518:
		/* Only the sequence number changes: patch the template. */
		memcpy(f, g->fixed, g->fixed_len);
		slsq_put(f + (g->vlan >= 0 ? 18 : 14) + 28, seq);
		len = g->fixed_len;
		break;
	case FT_HTTP:
		len = build_http(g, f, seq);
		break;
	case FT_REPLAY:
		len = replay_build(g, seq, f);
		break;
	default:
		len = build_udp(g, f, g->len, seq);
		break;
	}
	if (len == 0 || !g->erspan)
		return (len);
	return (encap_frame(g, seq, len, buf, FRAME_MAX));
}

static void
gen_init(struct gen *g, enum frame_type type, size_t len, uint64_t seed)
{
	uint64_t body_rng;
	size_t i;

	g->type = type;
	g->len = len;
	g->rng = rng_seed(seed);
	/* The Slammer body is the same in every packet, whatever the seed. */
	body_rng = rng_seed(1434);
	for (i = 0; i < sizeof(g->slammer_body); i++)
		g->slammer_body[i] = (unsigned char)(rng_next(&body_rng) >> 56);
	if (type == FT_FIXED64 || type == FT_FIXED1518)
		g->fixed_len = build_udp(g, g->fixed, len, 0);
}

static int
write_all_pcap(FILE *f, const void *p, size_t n)
{
	return (fwrite(p, 1, n, f) == n ? 0 : -1);
}

static void
put_host32(unsigned char *p, uint32_t v)
{
	/* pcap files are written in the writer's byte order. */
	memcpy(p, &v, 4);
}

static int
write_pcap(struct gen *g, const char *path, uint64_t count, uint64_t rate,
    uint32_t seq0)
{
	unsigned char hdr[24], rec[16];
	unsigned char *frame;
	FILE *f;
	uint64_t i, t_ns;
	uint16_t v;
	size_t len;
	int to_stdout;

	to_stdout = (strcmp(path, "-") == 0);
	if (to_stdout) {
		if (isatty(STDOUT_FILENO)) {
			fprintf(stderr, PROG ": refusing to write pcap data to a terminal\n");
			return (-1);
		}
		f = stdout;
	} else {
		f = fopen(path, "wb");
		if (f == NULL) {
			fprintf(stderr, PROG ": cannot create %s: %s\n", path,
			    strerror(errno));
			return (-1);
		}
	}
	frame = malloc(FRAME_MAX);
	if (frame == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		if (!to_stdout)
			fclose(f);
		return (-1);
	}

	put_host32(hdr, 0xa1b2c3d4);
	v = 2;
	memcpy(hdr + 4, &v, 2);
	v = 4;
	memcpy(hdr + 6, &v, 2);
	put_host32(hdr + 8, 0);	/* thiszone */
	put_host32(hdr + 12, 0);	/* sigfigs */
	put_host32(hdr + 16, PCAP_SNAPLEN);
	put_host32(hdr + 20, 1);	/* LINKTYPE_ETHERNET */
	if (write_all_pcap(f, hdr, sizeof(hdr)) != 0)
		goto write_error;

	for (i = 0; i < count; i++) {
		len = build_frame(g, seq0 + (uint32_t)i, frame);
		if (len == 0) {
			fprintf(stderr, PROG ": internal error building frame %llu\n",
			    (unsigned long long)i);
			goto fail;
		}
		t_ns = rate != 0 ? i * (1000000000ULL / rate) +
		    i * (1000000000ULL % rate) / rate : i * 1000ULL;
		put_host32(rec,
		    PCAP_TS_BASE + (uint32_t)(t_ns / 1000000000ULL));
		put_host32(rec + 4, (uint32_t)(t_ns % 1000000000ULL / 1000));
		put_host32(rec + 8, (uint32_t)len);
		put_host32(rec + 12, (uint32_t)len);
		if (write_all_pcap(f, rec, sizeof(rec)) != 0 ||
		    write_all_pcap(f, frame, len) != 0)
			goto write_error;
	}
	/* Late errors (a full disk, a closed pipe) show up only here. */
	if (fflush(f) != 0)
		goto write_error;
	if (!to_stdout && fclose(f) != 0) {
		f = NULL;
		goto write_error;
	}
	free(frame);
	fprintf(stderr, PROG ": wrote %llu frames to %s\n",
	    (unsigned long long)count, to_stdout ? "standard output" : path);
	return (0);

write_error:
	fprintf(stderr, PROG ": error writing %s: %s\n",
	    to_stdout ? "standard output" : path, strerror(errno));
fail:
	if (f != NULL && !to_stdout)
		fclose(f);
	free(frame);
	return (-1);
}

/* Frames due by elapsed time "el" at "rate", without 64-bit overflow. */
static uint64_t
frames_due(uint64_t el, uint64_t rate)
{
	return ((el / 1000000000ULL) * rate +
	    (el % 1000000000ULL) * rate / 1000000000ULL);
}

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/*
 * One sender (--threads): its own socket, buffers and copy of the frame
 * state, sending sequence numbers first, first + stride, first + 2 *
 * stride...  One sending thread costs about as much kernel CPU per frame
 * as its frames do (see bench/README), so on a machine with cores to
 * spare more threads offer more frames per second.
 */
struct sender {
	pthread_t tid;
	struct gen g;
	const char *ifname;
	unsigned int ifindex;
	uint64_t count;		/* frames of this sender */
	double duration;
	uint64_t rate;		/* this sender's share */
	uint32_t first, stride;
	uint64_t sent, bytes;	/* results */
	uint64_t t0, t1;	/* start and end, now_ns() */
	int ret;
	int running;		/* a thread was started */
};

static void *
sender_run(void *arg)
{
	struct sender *sd = arg;
	struct gen *g = &sd->g;
	const char *ifname = sd->ifname;
	uint64_t count = sd->count, rate = sd->rate;
	struct sockaddr_ll sll;
	struct mmsghdr msgs[BATCH_MAX];
	struct iovec iov[BATCH_MAX];
	unsigned char *bufs;
	uint64_t start, now, end_t, sent, bytes, due, next, stalled_since;
	unsigned int pending, first, i, n;
	int fd, r, sndbuf, ret;

	ret = -1;
	sd->t0 = sd->t1 = now_ns();
	/* Protocol 0: a send-only socket, it never queues received frames. */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		fprintf(stderr, PROG ": socket(AF_PACKET): %s%s\n",
		    strerror(errno), errno == EPERM ?
		    " (needs root or CAP_NET_RAW)" : "");
		sd->ret = -1;
		return (NULL);
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = (int)sd->ifindex;
	sll.sll_protocol = 0;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, PROG ": bind to %s: %s\n", ifname,
		    strerror(errno));
		close(fd);
		sd->ret = -1;
		return (NULL);
	}
	/*
	 * A deeper socket send buffer lets a whole batch be queued while
	 * the device drains the previous one; best effort.
	 */
	sndbuf = 4 * 1024 * 1024;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
	    sizeof(sndbuf)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
		    sizeof(sndbuf));

	bufs = malloc((size_t)BATCH_MAX * FRAME_MAX);
	if (bufs == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		close(fd);
		sd->ret = -1;
		return (NULL);
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < BATCH_MAX; i++) {
		iov[i].iov_base = bufs + (size_t)i * FRAME_MAX;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	sent = 0;
	bytes = 0;
	pending = 0;	/* built but not yet accepted by the kernel */
	first = 0;
	stalled_since = 0;
	start = now_ns();
	sd->t0 = start;
	end_t = sd->duration > 0 ? start + (uint64_t)(sd->duration * 1e9) :
	    UINT64_MAX;
	for (;;) {
		if (stop_requested)
			break;
		now = now_ns();
		if (now >= end_t)
			break;
		if (pending == 0) {
			if (sent >= count)
				break;
			n = BATCH_MAX;
			if (count - sent < n)
				n = (unsigned int)(count - sent);
			if (rate != 0) {
				/* Frame k is due at start + k / rate. */
				due = frames_due(now - start, rate) + 1;
				if (due <= sent) {
					/* Sleep until frame "sent" is due. */
					next = start +
					    sent / rate * 1000000000ULL +
					    sent % rate * 1000000000ULL / rate;
					if (next > end_t)
						next = end_t;
					sleep_until(next);
					continue;
				}
				if (due - sent < n)
					n = (unsigned int)(due - sent);
			}
			for (i = 0; i < n; i++) {
				iov[i].iov_len = build_frame(g, sd->first +
				    (uint32_t)((sent + i) * sd->stride),
				    iov[i].iov_base);
				if (iov[i].iov_len == 0) {
					fprintf(stderr, PROG ": internal error building a frame\n");
					goto done;
				}
			}
			pending = n;
			first = 0;
		}
		r = sendmmsg(fd, msgs + first, pending, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS || errno == EAGAIN) {
				/*
				 * The device queue is full: back off briefly
				 * and retry the same frames, but not forever.
				 */
				if (stalled_since == 0)
					stalled_since = now;
				else if (now - stalled_since > 10000000000ULL) {
					fprintf(stderr, PROG ": %s: no frame accepted for 10 s: %s\n",
					    ifname, strerror(errno));
					goto done;
				}
				sleep_until(now + 50000);
				continue;
			}
			if (errno == EMSGSIZE)
				fprintf(stderr, PROG ": %s: a %zu-byte frame is too large for the interface MTU\n",
				    ifname, iov[first].iov_len);
			else
				fprintf(stderr, PROG ": sending on %s: %s\n",
				    ifname, strerror(errno));
			goto done;
		}
		stalled_since = 0;
		for (i = 0; i < (unsigned int)r; i++)
			bytes += iov[first + i].iov_len;
		sent += (unsigned int)r;
		first += (unsigned int)r;
		pending -= (unsigned int)r;
	}
	ret = 0;
done:
	sd->t1 = now_ns();
	sd->sent = sent;
	sd->bytes = bytes;
	sd->ret = ret;
	free(bufs);
	close(fd);
	return (NULL);
}

/*
 * Send "count" frames (or for "duration" seconds) at "rate" with
 * "nsend" senders: sender k sends the numbers seq0 + k, seq0 + k +
 * nsend... at rate / nsend.  Prints one report for all of them.
 */
static int
send_frames(struct gen *g, const char *ifname, uint64_t count,
    double duration, uint64_t rate, uint32_t seq0, unsigned int nsend)
{
	struct sender *sd;
	uint64_t t0, t1, sent, bytes;
	unsigned int ifindex, k;
	int ret, e;
	double el;

	ifindex = if_nametoindex(ifname);
	if (ifindex == 0) {
		fprintf(stderr, PROG ": interface %s: %s\n", ifname,
		    strerror(errno));
		return (-1);
	}
	sd = calloc(nsend, sizeof(*sd));
	if (sd == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		return (-1);
	}
	for (k = 0; k < nsend; k++) {
		sd[k].g = *g;
		/* Random frames: each sender its own stream. */
		if (k > 0)
			sd[k].g.rng = rng_seed(g->rng + k);
		sd[k].ifname = ifname;
		sd[k].ifindex = ifindex;
		sd[k].count = count / nsend + (k < count % nsend ? 1 : 0);
		sd[k].duration = duration;
		sd[k].rate = rate / nsend + (k < rate % nsend ? 1 : 0);
		sd[k].first = seq0 + k;
		sd[k].stride = nsend;
		sd[k].ret = -1;
	}
	ret = 0;
	if (nsend == 1)
		(void)sender_run(&sd[0]);
	else {
		for (k = 0; k < nsend; k++) {
			/* A sender without frames (count < nsend) stays out. */
			if (sd[k].count == 0) {
				sd[k].ret = 0;
				continue;
			}
			e = pthread_create(&sd[k].tid, NULL, sender_run, &sd[k]);
			if (e != 0) {
				fprintf(stderr, PROG ": cannot start sender %u: %s\n",
				    k, strerror(e));
				ret = -1;
				stop_requested = 1;
				break;
			}
			sd[k].running = 1;
		}
		for (k = 0; k < nsend; k++)
			if (sd[k].running)
				(void)pthread_join(sd[k].tid, NULL);
			else if (sd[k].count != 0)
				sd[k].ret = -1;
	}
	t0 = UINT64_MAX;
	t1 = 0;
	sent = bytes = 0;
	for (k = 0; k < nsend; k++) {
		if (sd[k].ret != 0)
			ret = -1;
		if (sd[k].count == 0)
			continue;
		sent += sd[k].sent;
		bytes += sd[k].bytes;
		if (sd[k].t0 < t0)
			t0 = sd[k].t0;
		if (sd[k].t1 > t1)
			t1 = sd[k].t1;
	}
	el = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0.0;
	fprintf(stderr, PROG ": sent %llu frames (%llu bytes) on %s in %.3f s: %.0f pps, %.1f Mbit/s%s",
	    (unsigned long long)sent, (unsigned long long)bytes, ifname, el,
	    el > 0 ? (double)sent / el : 0.0,
	    el > 0 ? (double)bytes * 8 / el / 1e6 : 0.0,
	    stop_requested ? " (interrupted)" : "");
	if (nsend > 1)
		fprintf(stderr, " by %u senders", nsend);
	fprintf(stderr, "\n");
	free(sd);
	return (ret);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "type",	required_argument,	NULL, 't' },
		{ "replay",	required_argument,	NULL, 'R' },
		{ "threads",	required_argument,	NULL, 'T' },
		{ "count",	required_argument,	NULL, 'c' },
		{ "duration",	required_argument,	NULL, 'd' },
		{ "rate",	required_argument,	NULL, 'r' },
		{ "seed",	required_argument,	NULL, 's' },
		{ "seq-start",	required_argument,	NULL, 'S' },
		{ "src-mac",	required_argument,	NULL, 'M' },
		{ "dst-mac",	required_argument,	NULL, 'D' },
		{ "vlan",	required_argument,	NULL, 'V' },
		{ "out",	required_argument,	NULL, 'o' },
		{ "iface",	required_argument,	NULL, 'i' },
		{ "erspan",	required_argument,	NULL, 'E' },
		{ "erspan-session", required_argument,	NULL, 'e' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL,		0,			NULL, 0 }
	};
	static struct gen g;	/* large: keep it off the stack */
	static const unsigned char def_src[6] = { 2, 0, 0, 0, 0, 1 };
	static const unsigned char def_dst[6] = { 2, 0, 0, 0, 0, 2 };
	const char *type_name = NULL, *out = NULL, *iface = NULL;
	const char *replay = NULL;
	unsigned int nsend = 1;
	uint64_t count = 0, rate = 0, seed = 1, seq0 = 0, v;
	double duration = 0;
	int have_count = 0, have_duration = 0, have_session = 0, c, ti = -1;
	size_t i;
	char *end;
	struct sigaction sa;

	memset(&g, 0, sizeof(g));
	g.vlan = -1;
	g.es.session = 1;
	memcpy(g.src_mac, def_src, 6);
	memcpy(g.dst_mac, def_dst, 6);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			type_name = optarg;
			break;
		case 'R':
			replay = optarg;
			break;
		case 'T':
			if (parse_u64(optarg, 0, &v) != 0 || v < 1 || v > 64)
				bad_usage("invalid --threads '%s' (1-64)", optarg);
			nsend = (unsigned int)v;
			break;
		case 'c':
			if (parse_u64(optarg, 1, &count) != 0)
				bad_usage("invalid --count '%s'", optarg);
			have_count = 1;
			break;
		case 'd':
			errno = 0;
			duration = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    !(duration > 0 && duration <= 1e6))
				bad_usage("invalid --duration '%s' (seconds, > 0)", optarg);
			have_duration = 1;
			break;
		case 'r':
			if (parse_u64(optarg, 1, &rate) != 0 ||
			    rate > 1000000000ULL)
				bad_usage("invalid --rate '%s' (0-1G frames/s)", optarg);
			break;
		case 's':
			if (parse_u64(optarg, 0, &seed) != 0)
				bad_usage("invalid --seed '%s'", optarg);
			break;
		case 'S':
			if (parse_u64(optarg, 0, &seq0) != 0 ||
			    seq0 > UINT32_MAX)
				bad_usage("invalid --seq-start '%s' (0-4294967295)", optarg);
			break;
		case 'M':
			if (parse_mac(optarg, g.src_mac) != 0)
				bad_usage("invalid --src-mac '%s' (want xx:xx:xx:xx:xx:xx)", optarg);
			g.src_mac_set = 1;
			break;
		case 'D':
			if (parse_mac(optarg, g.dst_mac) != 0)
				bad_usage("invalid --dst-mac '%s' (want xx:xx:xx:xx:xx:xx)", optarg);
			g.dst_mac_set = 1;
			break;
		case 'V':
			if (parse_u64(optarg, 0, &v) != 0 || v > 4095)
				bad_usage("invalid --vlan '%s' (0-4095)", optarg);
			g.vlan = (int)v;
			break;
		case 'E':
			if (parse_u64(optarg, 0, &v) != 0 || v < 1 || v > 3)
				bad_usage("invalid --erspan '%s' (type 1, 2 or 3)", optarg);
			g.erspan = (int)v;
			break;
		case 'e':
			if (parse_u64(optarg, 0, &v) != 0 || v > 1023)
				bad_usage("invalid --erspan-session '%s' (0-1023)", optarg);
			g.es.session = (unsigned int)v;
			have_session = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'i':
			iface = optarg;
			break;
		case 'h':
			usage(stdout);
			return (0);
		default:
			if (optopt != 0)
				bad_usage("option '%s' needs an argument or is unknown",
				    argv[optind - 1]);
			bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
	if (type_name == NULL && replay == NULL)
		bad_usage("%s", "--type is required (or --replay FILE)");
	if (type_name != NULL && replay != NULL)
		bad_usage("%s", "give --type or --replay, not both");
	for (i = 0; type_name != NULL && i < N_FRAME_TYPES; i++)
		if (strcmp(type_name, frame_types[i].name) == 0)
			ti = (int)i;
	if (type_name != NULL && ti < 0)
		bad_usage("unknown --type '%s' (see --help)", type_name);
	if (replay != NULL && g.vlan >= 0)
		bad_usage("%s", "--vlan does not apply to --replay");
	if ((out == NULL) == (iface == NULL))
		bad_usage("%s", "give exactly one of --out and --iface");
	if (out != NULL && !have_count)
		bad_usage("%s", "--out needs --count");
	if (out != NULL && have_duration)
		bad_usage("%s", "--duration applies to --iface only");
	if (out != NULL && nsend != 1)
		bad_usage("%s", "--threads applies to --iface only");
	if (iface != NULL && !have_count && !have_duration)
		bad_usage("%s", "--iface needs --count or --duration (or both)");
	if (have_count && count == 0)
		bad_usage("%s", "--count must be at least 1");
	/* Sequence numbers must not wrap: each must name one frame. */
	if (have_count && count - 1 > UINT32_MAX - seq0)
		bad_usage("%s", "--count and --seq-start exceed the 32-bit sequence space");
	if (!have_count)
		count = (uint64_t)UINT32_MAX - seq0 + 1;
	if (have_session && g.erspan == 0)
		bad_usage("%s", "--erspan-session needs --erspan");
	if (g.erspan != 0) {
		g.es.type = g.erspan;
		/* Type III: carry the GRE sequence number as type II does. */
		g.es.gre_seq = (g.erspan == 3);
	}

	if (replay != NULL) {
		gen_init(&g, FT_REPLAY, 0, seed);
		g.rp_seq0 = (uint32_t)seq0;
		if (replay_load(&g, replay) != 0)
			return (1);
	} else
		gen_init(&g, frame_types[ti].type, frame_types[ti].len, seed);

	if (out != NULL)
		return (write_pcap(&g, out, count, rate,
		    (uint32_t)seq0) == 0 ? 0 : 1);

	/* Stop cleanly on ^C/kill so the final report is still printed. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return (send_frames(&g, iface, count, duration, rate,
	    (uint32_t)seq0, nsend) == 0 ? 0 : 1);
}
