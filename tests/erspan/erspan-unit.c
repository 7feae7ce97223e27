/*
 * erspan-unit -- unit tests of the ERSPAN decapsulator and of its
 * agreement with the "erspan" filter primitive.
 *
 * usage: erspan-unit decap|agree|fuzz
 *   decap  every variant and every breakage through
 *          pcapint_erspan_decap(): offsets, fields and reasons;
 *   agree  for every variant, breakage and every truncation length,
 *          "erspan", "erspan N" and "erspan and F" (optimized and not)
 *          match exactly when the decapsulator says they should;
 *   fuzz   the same agreement on randomly corrupted frames.
 * Prints one line per failure and exits 1 if there was any.
 */

#define _DEFAULT_SOURCE	/* u_char and friends in pcap.h under -std=c99 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pcap-erspan.h"
#include "erspan-craft.h"

static unsigned long failures, checks;

#define CHECK(cond, ...) do { \
	checks++; \
	if (!(cond)) { \
		failures++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

/* Enumerate the valid variants: returns 0 when i is past the last. */
static int
variant(unsigned int i, struct erspan_craft *c)
{
	unsigned int type, ip, tags, gre, seq, o;

	memset(c, 0, sizeof(*c));
	o = i % 2; i /= 2;
	seq = i % 2; i /= 2;
	gre = i % 4; i /= 4;
	tags = i % 3; i /= 3;
	ip = i % 4; i /= 4;
	type = i % 3 + 1; i /= 3;
	if (i != 0)
		return (0);
	c->type = (int)type;
	c->ipv6 = ip == 3;
	c->ip_optlen = ip == 1 ? 4 : ip == 2 ? 40 : 0;
	c->tags = tags;
	c->outer_vid = 10 + tags;
	c->gre_csum = gre & 1;
	c->gre_key = (gre & 2) != 0;
	c->key = 0xdeadbeef;
	c->gre_seq = (int)seq;
	c->seq = 0x01020304;
	c->session = (type * 100 + tags * 10 + gre) & 0x3ff;
	c->vlan = 0xabc;
	c->cos = 5;
	c->en = type == 2 ? 3 : 2;
	c->t = (int)o;
	c->index = 0xfedcb;
	c->timestamp = 0x89abcdef;
	c->sgt = 0x1234;
	c->hw_id = 0x2a;
	c->d = 1;
	c->gra = 2;
	c->o = type == 3 ? (int)o : 0;
	c->platf_id = 3;
	c->platf_info = 0x0123456789abcdefULL & 0x03ffffffffffffffULL;
	return (1);
}

static const char *
describe(const struct erspan_craft *c)
{
	static char buf[160];

	snprintf(buf, sizeof(buf),
	    "type %d v%d opt %u tags %u C%d K%d S%d O%d brk %#x cut %zu pad %zu",
	    c->type, c->ipv6 ? 6 : 4, c->ip_optlen, c->tags, c->gre_csum,
	    c->gre_key, c->gre_seq, c->o, c->breakage, c->truncate, c->pad_to);
	return (buf);
}

static void
check_fields(const struct erspan_craft *c, const struct erspan_craft_layout *l,
    const unsigned char *pkt, size_t len, const unsigned char *inner,
    size_t ilen)
{
	struct pcapint_erspan e;
	int r;
	int seq_bit = c->type == 2 || (c->type == 3 && c->gre_seq);

	r = pcapint_erspan_decap(pkt, len, &e);
	CHECK(r == PCAPINT_ERSPAN_OK, "%s: reason %d", describe(c), r);
	if (r != PCAPINT_ERSPAN_OK)
		return;
	CHECK(e.inner_off == l->inner_off, "%s: inner_off %zu, want %zu",
	    describe(c), e.inner_off, l->inner_off);
	CHECK(e.inner_len == ilen, "%s: inner_len %zu, want %zu", describe(c),
	    e.inner_len, ilen);
	CHECK(e.inner_caplen == ilen, "%s: inner_caplen %zu", describe(c),
	    e.inner_caplen);
	CHECK(memcmp(pkt + e.inner_off, inner, ilen) == 0, "%s: inner bytes",
	    describe(c));
	CHECK(e.type == (unsigned int)c->type, "%s: type %u", describe(c),
	    e.type);
	CHECK(e.outer_tags == c->tags, "%s: tags %u", describe(c),
	    e.outer_tags);
	CHECK(e.ip_version == (c->ipv6 ? 6U : 4U), "%s: ip %u", describe(c),
	    e.ip_version);
	CHECK(e.ip_off == l->ip_off && e.gre_off == l->gre_off,
	    "%s: ip_off %zu gre_off %zu", describe(c), e.ip_off, e.gre_off);
	CHECK(e.gre_hdrlen == 4U + 4U * (c->gre_csum + c->gre_key + seq_bit),
	    "%s: gre_hdrlen %u", describe(c), e.gre_hdrlen);
	CHECK(e.has_key == c->gre_key && (!c->gre_key || e.key == c->key),
	    "%s: key", describe(c));
	CHECK(e.has_seq == seq_bit && (!seq_bit || e.seq == c->seq),
	    "%s: seq", describe(c));
	if (c->type == 1) {
		CHECK(e.hdrlen == 0, "%s: hdrlen %u", describe(c), e.hdrlen);
		return;
	}
	CHECK(e.hdrlen == (c->type == 2 ? 8U : c->o ? 20U : 12U),
	    "%s: hdrlen %u", describe(c), e.hdrlen);
	CHECK(e.version == (unsigned int)c->type - 1, "%s: version %u",
	    describe(c), e.version);
	CHECK(e.session == c->session && e.vlan == c->vlan &&
	    e.cos == c->cos && e.en == c->en && e.t == (unsigned int)c->t,
	    "%s: word 0: session %u vlan %#x cos %u en %u t %u", describe(c),
	    e.session, e.vlan, e.cos, e.en, e.t);
	if (c->type == 2) {
		CHECK(e.index == c->index, "%s: index %#x", describe(c),
		    (unsigned int)e.index);
		return;
	}
	CHECK(e.timestamp == c->timestamp && e.sgt == c->sgt &&
	    e.p == 1 && e.ft == 0 && e.hw_id == c->hw_id &&
	    e.d == (unsigned int)c->d && e.gra == c->gra &&
	    e.o == (unsigned int)c->o,
	    "%s: type III fields ts %#x sgt %#x p %u ft %u hw %u d %u gra %u o %u",
	    describe(c), (unsigned int)e.timestamp, e.sgt, e.p, e.ft, e.hw_id,
	    e.d, e.gra, e.o);
	if (c->o)
		CHECK(e.platf_id == c->platf_id &&
		    e.platf_info == c->platf_info, "%s: platform subheader",
		    describe(c));
}

static int
test_decap(void)
{
	struct erspan_craft c;
	struct erspan_craft_layout l;
	unsigned char inner[256], pkt[2048];
	struct pcapint_erspan e;
	size_t ilen, len, cut;
	unsigned int i;
	int r;
	static const struct {
		int type, ipv6;
		unsigned int breakage, ft;
		int reason;
	} broken[] = {
		{ 2, 0, ERSPAN_CRAFT_BAD_VERSION, 0, PCAPINT_ERSPAN_BAD_VERSION },
		{ 3, 1, ERSPAN_CRAFT_BAD_VERSION, 0, PCAPINT_ERSPAN_BAD_VERSION },
		{ 1, 0, ERSPAN_CRAFT_GRE_ROUTING, 0, PCAPINT_ERSPAN_GRE_UNSUPPORTED },
		{ 2, 1, ERSPAN_CRAFT_GRE_ROUTING, 0, PCAPINT_ERSPAN_GRE_UNSUPPORTED },
		{ 2, 0, ERSPAN_CRAFT_GRE_VERSION, 0, PCAPINT_ERSPAN_GRE_UNSUPPORTED },
		{ 3, 0, ERSPAN_CRAFT_GRE_VERSION, 0, PCAPINT_ERSPAN_GRE_UNSUPPORTED },
		{ 2, 0, ERSPAN_CRAFT_FRAGMENT, 0, PCAPINT_ERSPAN_FRAGMENT },
		{ 1, 0, ERSPAN_CRAFT_FRAG_OFFSET, 0, PCAPINT_ERSPAN_FRAGMENT },
		{ 2, 0, ERSPAN_CRAFT_SHORT_IPLEN, 0, PCAPINT_ERSPAN_BAD_LENGTH },
		{ 3, 1, ERSPAN_CRAFT_SHORT_IPLEN, 0, PCAPINT_ERSPAN_BAD_LENGTH },
		{ 2, 0, ERSPAN_CRAFT_BAD_IP_VERSION, 0, PCAPINT_ERSPAN_BAD_IP },
		{ 2, 1, ERSPAN_CRAFT_BAD_IP_VERSION, 0, PCAPINT_ERSPAN_BAD_IP },
		{ 2, 0, ERSPAN_CRAFT_NOT_GRE, 0, PCAPINT_ERSPAN_NOT_GRE },
		{ 1, 1, ERSPAN_CRAFT_NOT_GRE, 0, PCAPINT_ERSPAN_NOT_GRE },
		{ 2, 0, ERSPAN_CRAFT_OTHER_PROTO, 0, PCAPINT_ERSPAN_NOT_ERSPAN },
		{ 3, 0, 0, 2, PCAPINT_ERSPAN_NOT_ETHERNET },
		{ 3, 1, 0, 31, PCAPINT_ERSPAN_NOT_ETHERNET },
	};

	ilen = erspan_craft_inner(42, 0, 80, inner, sizeof(inner));
	for (i = 0; variant(i, &c); i++) {
		len = erspan_craft_layout(&c, inner, ilen, pkt, sizeof(pkt), &l);
		CHECK(len != 0, "craft %s", describe(&c));
		check_fields(&c, &l, pkt, len, inner, ilen);

		/* Every cut inside the headers is "truncated". */
		for (cut = 0; cut < l.inner_off; cut++) {
			r = pcapint_erspan_decap(pkt, cut, &e);
			CHECK(r == PCAPINT_ERSPAN_TRUNCATED,
			    "%s: cut at %zu: reason %d", describe(&c), cut, r);
		}
		/* A cut inside the inner frame only shortens its caplen. */
		for (cut = l.inner_off; cut < len; cut++) {
			r = pcapint_erspan_decap(pkt, cut, &e);
			CHECK(r == PCAPINT_ERSPAN_OK &&
			    e.inner_caplen == cut - l.inner_off &&
			    e.inner_len == ilen,
			    "%s: cut at %zu: reason %d caplen %zu len %zu",
			    describe(&c), cut, r, e.inner_caplen, e.inner_len);
		}

		/* Padding after the IP datagram is not inner data. */
		c.pad_to = len + 18;
		len = erspan_craft_layout(&c, inner, ilen, pkt, sizeof(pkt), &l);
		check_fields(&c, &l, pkt, len, inner, ilen);
	}
	CHECK(i == 2 * 2 * 4 * 3 * 4 * 3, "variants: %u", i);

	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.type = broken[i].type;
		c.ipv6 = broken[i].ipv6;
		c.breakage = broken[i].breakage;
		c.ft = broken[i].ft;
		c.session = 7;
		len = erspan_craft(&c, inner, ilen, pkt, sizeof(pkt));
		CHECK(len != 0, "craft %s", describe(&c));
		r = pcapint_erspan_decap(pkt, len, &e);
		CHECK(r == broken[i].reason, "%s ft %u: reason %d, want %d",
		    describe(&c), c.ft, r, broken[i].reason);
	}

	/* Not IP, and a third tag (only two are looked through). */
	memset(pkt, 0, 64);
	pkt[12] = 0x08; pkt[13] = 0x06;
	CHECK(pcapint_erspan_decap(pkt, 64, &e) == PCAPINT_ERSPAN_NOT_IP,
	    "ARP frame");
	memset(&c, 0, sizeof(c));
	c.type = 2;
	c.tags = 2;
	len = erspan_craft(&c, inner, ilen, pkt + 4, sizeof(pkt) - 4);
	memmove(pkt, pkt + 4, 12);
	pkt[12] = 0x81; pkt[13] = 0x00; pkt[14] = 0; pkt[15] = 1;
	CHECK(pcapint_erspan_decap(pkt, len + 4, &e) == PCAPINT_ERSPAN_NOT_IP,
	    "three tags");
	return (failures == 0 ? 0 : 1);
}

/*
 * Filter agreement.  For a frame and the decapsulator's verdict:
 *   "erspan"             matches iff the verdict is OK;
 *   "erspan 7"           iff OK, type II/III and session 7;
 *   "erspan and INNER"   iff OK and INNER matches the inner frame;
 * each compiled with and without the optimizer.
 */
static const char *const inner_filters[] = {
	"tcp port 80", "udp", "ip host 192.168.0.2 and tcp[13] = 0x18",
	"ether src 02:00:5e:20:00:01", "not ip", "vlan",
	"ether[0:2] = 0x0200 and ether[2:2] = 0x5e20",
};
#define N_INNER	(sizeof(inner_filters) / sizeof(inner_filters[0]))

struct progs {
	struct bpf_program any[2], sid7[2], inner_and[N_INNER][2];
	struct bpf_program inner[N_INNER];
	struct bpf_program nested[2];
};

static int
compile(pcap_t *p, struct bpf_program *fp, const char *expr, int opt)
{
	if (pcap_compile(p, fp, expr, opt, PCAP_NETMASK_UNKNOWN) != 0) {
		printf("FAIL compile \"%s\": %s\n", expr, pcap_geterr(p));
		failures++;
		return (-1);
	}
	return (0);
}

static int
setup(pcap_t *p, struct progs *pr)
{
	char buf[256];
	unsigned int i, o;

	for (o = 0; o < 2; o++) {
		if (compile(p, &pr->any[o], "erspan", o) ||
		    compile(p, &pr->sid7[o], "erspan 7", o) ||
		    compile(p, &pr->nested[o], "erspan and erspan", o))
			return (-1);
		for (i = 0; i < N_INNER; i++) {
			snprintf(buf, sizeof(buf), "erspan and (%s)",
			    inner_filters[i]);
			if (compile(p, &pr->inner_and[i][o], buf, o))
				return (-1);
		}
	}
	for (i = 0; i < N_INNER; i++)
		if (compile(p, &pr->inner[i], inner_filters[i], 1))
			return (-1);
	return (0);
}

static void
release(struct progs *pr)
{
	unsigned int i, o;

	for (o = 0; o < 2; o++) {
		pcap_freecode(&pr->any[o]);
		pcap_freecode(&pr->sid7[o]);
		pcap_freecode(&pr->nested[o]);
		for (i = 0; i < N_INNER; i++)
			pcap_freecode(&pr->inner_and[i][o]);
	}
	for (i = 0; i < N_INNER; i++)
		pcap_freecode(&pr->inner[i]);
}

static int
run(const struct bpf_program *fp, const unsigned char *pkt, size_t caplen,
    size_t len)
{
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.caplen = (bpf_u_int32)caplen;
	h.len = (bpf_u_int32)len;
	return (pcap_offline_filter(fp, &h, pkt) != 0);
}

/* Returns 1 if the frame was ERSPAN per the decapsulator. */
static int
agree_one(const struct progs *pr, const unsigned char *pkt, size_t caplen,
    size_t len, const char *what)
{
	struct pcapint_erspan e, e2;
	int ok, want, got, inner_ok;
	unsigned int i, o;

	ok = pcapint_erspan_decap(pkt, caplen, &e) == PCAPINT_ERSPAN_OK;
	for (o = 0; o < 2; o++) {
		got = run(&pr->any[o], pkt, caplen, len);
		CHECK(got == ok, "%s: \"erspan\" -O%u: %d, decap %d", what, o,
		    got, ok);
		want = ok && e.type != 1 && e.session == 7;
		got = run(&pr->sid7[o], pkt, caplen, len);
		CHECK(got == want, "%s: \"erspan 7\" -O%u: %d, want %d", what,
		    o, got, want);
		want = ok && pcapint_erspan_decap(pkt + e.inner_off,
		    e.inner_caplen, &e2) == PCAPINT_ERSPAN_OK;
		got = run(&pr->nested[o], pkt, caplen, len);
		CHECK(got == want, "%s: \"erspan and erspan\" -O%u: %d, want %d",
		    what, o, got, want);
		for (i = 0; i < N_INNER; i++) {
			/*
			 * The inner filter runs on the outer packet, so it
			 * sees every captured byte after the inner offset,
			 * also those past the IP length that the
			 * decapsulator leaves out of inner_caplen.
			 */
			inner_ok = ok && run(&pr->inner[i], pkt + e.inner_off,
			    caplen - e.inner_off, len);
			got = run(&pr->inner_and[i][o], pkt, caplen, len);
			CHECK(got == inner_ok,
			    "%s: \"erspan and (%s)\" -O%u: %d, want %d", what,
			    inner_filters[i], o, got, inner_ok);
		}
	}
	return (ok);
}

static int
test_agree(const struct progs *pr)
{
	struct erspan_craft c;
	unsigned char inner[256], pkt[2048], mid[2048];
	size_t ilen, len, cut, mlen;
	unsigned int i, n, matched = 0;
	static const unsigned int breaks[] = {
		ERSPAN_CRAFT_BAD_VERSION, ERSPAN_CRAFT_GRE_ROUTING,
		ERSPAN_CRAFT_GRE_VERSION, ERSPAN_CRAFT_FRAGMENT,
		ERSPAN_CRAFT_FRAG_OFFSET, ERSPAN_CRAFT_SHORT_IPLEN,
		ERSPAN_CRAFT_BAD_IP_VERSION, ERSPAN_CRAFT_NOT_GRE,
		ERSPAN_CRAFT_OTHER_PROTO,
	};
	char what[256];

	for (i = 0; variant(i, &c); i++) {
		for (n = 0; n < 4; n++) {
			ilen = erspan_craft_inner(i, n & 1, n & 2 ? 53 : 80,
			    inner, sizeof(inner));
			/* Session 7 on some, to exercise "erspan 7". */
			if (n == 2)
				c.session = 7;
			len = erspan_craft(&c, inner, ilen, pkt, sizeof(pkt));
			for (cut = 1; cut <= len; cut++) {
				snprintf(what, sizeof(what), "%s inner %u cut %zu",
				    describe(&c), n, cut);
				matched += agree_one(pr, pkt, cut, len, what);
			}
		}
		/* Breakages on this variant. */
		for (n = 0; n < sizeof(breaks) / sizeof(breaks[0]); n++) {
			/* No fragment fields in IPv6, no version in type I. */
			if (c.ipv6 && (breaks[n] & (ERSPAN_CRAFT_FRAGMENT |
			    ERSPAN_CRAFT_FRAG_OFFSET)))
				continue;
			if (c.type == 1 && breaks[n] == ERSPAN_CRAFT_BAD_VERSION)
				continue;
			c.breakage = breaks[n];
			len = erspan_craft(&c, inner, ilen, pkt, sizeof(pkt));
			CHECK(len != 0, "craft %s", describe(&c));
			CHECK(!agree_one(pr, pkt, len, len, describe(&c)),
			    "%s: accepted", describe(&c));
		}
		c.breakage = 0;
		if (c.type == 3) {
			c.ft = 2;
			len = erspan_craft(&c, inner, ilen, pkt, sizeof(pkt));
			CHECK(!agree_one(pr, pkt, len, len, "ft 2"),
			    "%s ft 2: accepted", describe(&c));
			c.ft = 0;
		}

		/* ERSPAN in ERSPAN ("erspan and erspan"). */
		mlen = erspan_craft(&c, inner, ilen, mid, sizeof(mid));
		c.tags = 0;
		len = erspan_craft(&c, mid, mlen, pkt, sizeof(pkt));
		CHECK(agree_one(pr, pkt, len, len, "nested"), "%s nested",
		    describe(&c));
		CHECK(run(&pr->nested[1], pkt, len, len), "%s nested match",
		    describe(&c));
	}
	CHECK(matched > 1000, "matched %u frames", matched);
	return (failures == 0 ? 0 : 1);
}

/* Deterministic xorshift PRNG, so that a failure can be reproduced. */
static uint32_t rng = 2463534242U;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return (rng);
}

static int
test_fuzz(const struct progs *pr)
{
	struct erspan_craft c;
	struct erspan_craft_layout l;
	unsigned char inner[256], pkt[2048];
	size_t ilen, len;
	unsigned int iter, nvar, k, flips, pos, accepted = 0;
	char what[256];

	for (nvar = 0; variant(nvar, &c); nvar++)
		;
	for (iter = 0; iter < 60000; iter++) {
		variant(rnd() % nvar, &c);
		if (rnd() % 4 == 0)
			c.session = 7;
		ilen = erspan_craft_inner(iter, rnd() & 1, 80, inner,
		    sizeof(inner));
		len = erspan_craft_layout(&c, inner, ilen, pkt, sizeof(pkt),
		    &l);
		/* Flip bits in the outer headers, mostly. */
		flips = 1 + rnd() % 3;
		for (k = 0; k < flips; k++) {
			pos = rnd() % (unsigned int)(l.inner_off + 16);
			pkt[pos] ^= (unsigned char)(1U << (rnd() % 8));
		}
		if (rnd() % 3 == 0)
			len = 1 + rnd() % (unsigned int)len;
		snprintf(what, sizeof(what), "fuzz %u (%s)", iter,
		    describe(&c));
		accepted += agree_one(pr, pkt, len, len, what);
	}
	printf("# fuzz: %u of 60000 corrupted frames still ERSPAN\n",
	    accepted);
	CHECK(accepted > 1000 && accepted < 59000, "fuzz accepted %u",
	    accepted);
	return (failures == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	pcap_t *p;
	struct progs pr;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: erspan-unit decap|agree|fuzz\n");
		return (2);
	}
	if (strcmp(argv[1], "decap") == 0)
		ret = test_decap();
	else {
		p = pcap_open_dead(DLT_EN10MB, 65535);
		if (p == NULL)
			return (1);
		/* Zeroed, so that pcap_freecode() of an unset program is safe. */
		memset(&pr, 0, sizeof(pr));
		if (setup(p, &pr) != 0) {
			release(&pr);
			pcap_close(p);
			return (1);
		}
		if (strcmp(argv[1], "agree") == 0)
			ret = test_agree(&pr);
		else if (strcmp(argv[1], "fuzz") == 0)
			ret = test_fuzz(&pr);
		else {
			fprintf(stderr, "erspan-unit: unknown test %s\n",
			    argv[1]);
			ret = 2;
		}
		release(&pr);
		pcap_close(p);
		if (ret == 2)
			return (ret);
	}
	printf("# %lu checks, %lu failures\n", checks, failures);
	return (ret);
}
