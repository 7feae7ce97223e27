/*
 * erspan-craft.c -- build ERSPAN-in-GRE test frames (see erspan-craft.h).
 *
 * The layouts follow RFC 2784/2890 (GRE) and draft-foschiano-erspan-03
 * (ERSPAN types II and III); type I is GRE protocol 0x88be without a
 * sequence number and without an ERSPAN header.
 */

#include <stdio.h>
#include <string.h>

#include "erspan-craft.h"
#include "gen-util.h"

static const unsigned char outer_dst[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x02 };
static const unsigned char outer_src[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };
static const unsigned char inner_dst[6] = { 0x02, 0x00, 0x5e, 0x20, 0x00, 0x02 };
static const unsigned char inner_src[6] = { 0x02, 0x00, 0x5e, 0x20, 0x00, 0x01 };

/* RFC 1071 Internet checksum of p[len]. */
static unsigned int
cksum(const unsigned char *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (~sum & 0xffff);
}

static int
spec_ok(const struct erspan_craft *spec)
{
	if (spec->type < 1 || spec->type > 3)
		return (0);
	if (spec->ip_optlen > 40 || spec->ip_optlen % 4 != 0)
		return (0);
	if (spec->ipv6 && spec->ip_optlen != 0)
		return (0);
	if (spec->tags > 2)
		return (0);
	if (spec->session > 0x3ff || spec->vlan > 0xfff || spec->cos > 7 ||
	    spec->en > 3 || spec->index > 0xfffff || spec->sgt > 0xffff ||
	    spec->hw_id > 0x3f || spec->gra > 3 || spec->ft > 0x1f ||
	    spec->platf_id > 0x3f || spec->outer_vid > 0xfff)
		return (0);
	return (1);
}

size_t
erspan_craft_layout(const struct erspan_craft *spec,
    const unsigned char *inner, size_t inner_len,
    unsigned char *out, size_t out_size, struct erspan_craft_layout *layout)
{
	size_t pos, ip, gre, ers, inner_off, ip_end, total, i;
	unsigned int flags, seq_bit, ers_len, ip_hlen, proto;

	if (!spec_ok(spec))
		return (0);

	seq_bit = spec->type == 2 || (spec->type == 3 && spec->gre_seq);
	if (spec->type == 1)
		ers_len = 0;
	else if (spec->type == 2)
		ers_len = 8;
	else
		ers_len = spec->o ? 20 : 12;
	ip_hlen = spec->ipv6 ? 40 : 20 + spec->ip_optlen;
	total = 14 + 4 * spec->tags + ip_hlen + 4 + 4 * (spec->gre_csum != 0) +
	    4 * (spec->gre_key != 0) + 4 * seq_bit + ers_len + inner_len;
	if (total < spec->pad_to)
		total = spec->pad_to;
	if (total > out_size || total > 65535)
		return (0);
	memset(out, 0, total);

	/* Outer Ethernet and tags: 802.1ad outside, 802.1Q inside. */
	memcpy(out, outer_dst, 6);
	memcpy(out + 6, outer_src, 6);
	pos = 12;
	for (i = 0; i < spec->tags; i++) {
		put16(out + pos, (spec->tags == 2 && i == 0) ? 0x88a8 : 0x8100);
		put16(out + pos + 2, spec->outer_vid + (unsigned int)i);
		pos += 4;
	}
	put16(out + pos, spec->ipv6 ? 0x86dd : 0x0800);
	ip = pos + 2;
	gre = ip + ip_hlen;
	pos = gre + 4;

	/* GRE. */
	flags = 0;
	if (spec->gre_csum)
		flags |= 0x8000;
	if (spec->gre_key)
		flags |= 0x2000;
	if (seq_bit)
		flags |= 0x1000;
	if (spec->breakage & ERSPAN_CRAFT_GRE_ROUTING)
		flags |= 0x4000;
	if (spec->breakage & ERSPAN_CRAFT_GRE_VERSION)
		flags |= 0x0001;
	proto = spec->type == 3 ? 0x22eb : 0x88be;
	if (spec->breakage & ERSPAN_CRAFT_OTHER_PROTO)
		proto = 0x6558;
	put16(out + gre, flags);
	put16(out + gre + 2, proto);
	if (spec->gre_csum)
		pos += 4;	/* filled in below */
	if (spec->gre_key) {
		put32(out + pos, spec->key);
		pos += 4;
	}
	if (seq_bit) {
		put32(out + pos, spec->seq);
		pos += 4;
	}

	/* ERSPAN header. */
	ers = pos;
	if (spec->type != 1) {
		unsigned int ver = spec->type == 2 ? 1 : 2;
		unsigned int hi, lo;

		if (spec->breakage & ERSPAN_CRAFT_BAD_VERSION)
			ver = spec->type == 2 ? 2 : 1;
		hi = ver << 12 | spec->vlan;
		lo = spec->cos << 13 | spec->en << 11 |
		    (spec->t ? 1U : 0U) << 10 | spec->session;
		put16(out + ers, hi);
		put16(out + ers + 2, lo);
		if (spec->type == 2)
			put32(out + ers + 4, spec->index);
		else {
			put32(out + ers + 4, spec->timestamp);
			put16(out + ers + 8, spec->sgt);
			/* P is set when the payload is an Ethernet frame. */
			put16(out + ers + 10, (spec->ft == 0 ? 0x8000U : 0U) |
			    spec->ft << 10 | spec->hw_id << 4 |
			    (spec->d ? 1U : 0U) << 3 | spec->gra << 1 |
			    (spec->o ? 1U : 0U));
			if (spec->o) {
				put32(out + ers + 12, (uint32_t)spec->platf_id << 26 |
				    (uint32_t)(spec->platf_info >> 32 & 0x03ffffff));
				put32(out + ers + 16, (uint32_t)spec->platf_info);
			}
		}
	}
	inner_off = ers + ers_len;
	memcpy(out + inner_off, inner, inner_len);
	ip_end = inner_off + inner_len;
	if (spec->breakage & ERSPAN_CRAFT_SHORT_IPLEN)
		ip_end = inner_off + 10;

	if (spec->gre_csum)
		put16(out + gre + 4, cksum(out + gre, ip_end - gre));

	/* Outer IP. */
	if (spec->ipv6) {
		static const unsigned char a6[16] = { 0x20, 0x01, 0x0d, 0xb8 };

		out[ip] = 0x60;
		if (spec->breakage & ERSPAN_CRAFT_BAD_IP_VERSION)
			out[ip] = 0x40;
		put16(out + ip + 4, (unsigned int)(ip_end - gre));
		out[ip + 6] = (spec->breakage & ERSPAN_CRAFT_NOT_GRE) ? 17 : 47;
		out[ip + 7] = 64;
		memcpy(out + ip + 8, a6, 16);
		out[ip + 8 + 15] = 1;
		memcpy(out + ip + 24, a6, 16);
		out[ip + 24 + 15] = 2;
	} else {
		unsigned int frag = 0x4000;	/* DF */

		out[ip] = (unsigned char)(0x40 | (ip_hlen / 4));
		if (spec->breakage & ERSPAN_CRAFT_BAD_IP_VERSION)
			out[ip] = (unsigned char)(0x60 | (ip_hlen / 4));
		put16(out + ip + 2, (unsigned int)(ip_end - ip));
		put16(out + ip + 4, 0x1234);
		if (spec->breakage & ERSPAN_CRAFT_FRAGMENT)
			frag = 0x2000;
		if (spec->breakage & ERSPAN_CRAFT_FRAG_OFFSET)
			frag |= 1;
		put16(out + ip + 6, frag);
		out[ip + 8] = 64;
		out[ip + 9] = (spec->breakage & ERSPAN_CRAFT_NOT_GRE) ? 17 : 47;
		put32(out + ip + 12, 0x0a000001);
		put32(out + ip + 16, 0x0a000002);
		/* Options: NOPs, then End of Option List. */
		for (i = 0; i < spec->ip_optlen; i++)
			out[ip + 20 + i] = i + 1 < spec->ip_optlen ? 1 : 0;
		put16(out + ip + 10, cksum(out + ip, ip_hlen));
	}

	if (layout != NULL) {
		layout->ip_off = ip;
		layout->gre_off = gre;
		layout->erspan_off = ers;
		layout->inner_off = inner_off;
		layout->inner_len = ip_end - inner_off;
		layout->frame_len = total;
	}
	if (spec->truncate != 0 && spec->truncate < total)
		total = spec->truncate;
	return (total);
}

size_t
erspan_craft(const struct erspan_craft *spec, const unsigned char *inner,
    size_t inner_len, unsigned char *out, size_t out_size)
{
	return (erspan_craft_layout(spec, inner, inner_len, out, out_size,
	    NULL));
}

size_t
erspan_craft_inner(unsigned int n, int udp, unsigned int dport,
    unsigned char *out, size_t out_size)
{
	char payload[32];
	size_t plen, l4len, total;
	unsigned char *ip, *l4;

	plen = (size_t)snprintf(payload, sizeof(payload), "sluice-%u", n);
	l4len = (udp ? 8 : 20) + plen;
	total = 14 + 20 + l4len;
	if (total > out_size || dport > 0xffff)
		return (0);
	memset(out, 0, total);
	memcpy(out, inner_dst, 6);
	memcpy(out + 6, inner_src, 6);
	put16(out + 12, 0x0800);
	ip = out + 14;
	ip[0] = 0x45;
	put16(ip + 2, (unsigned int)(20 + l4len));
	put16(ip + 4, n & 0xffff);
	ip[8] = 64;
	ip[9] = udp ? 17 : 6;
	put32(ip + 12, 0xc0a80001);
	put32(ip + 16, 0xc0a80002);
	put16(ip + 10, cksum(ip, 20));
	l4 = ip + 20;
	put16(l4, 1024 + (n & 0x7fff));
	put16(l4 + 2, dport);
	if (udp) {
		put16(l4 + 4, (unsigned int)l4len);
		memcpy(l4 + 8, payload, plen);
	} else {
		put32(l4 + 4, n);
		l4[12] = 5 << 4;
		l4[13] = 0x18;		/* PSH, ACK */
		put16(l4 + 14, 8192);
		memcpy(l4 + 20, payload, plen);
	}
	return (total);
}
