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
 */

/*
 * ERSPAN decapsulation by the rules in pcap-erspan.h, which gen_erspan()
 * compiles to BPF: change both together.  Only the C library is used,
 * so tests can compile this file alone.
 */

#include <config.h>

#include <string.h>

#include "pcap-erspan.h"

#define ETHERTYPE_IPV4_	0x0800
#define ETHERTYPE_IPV6_	0x86dd
#define TPID_8021Q	0x8100
#define TPID_8021AD	0x88a8
#define IPPROTO_GRE_	47
#define GRE_C		0x8000
#define GRE_R		0x4000
#define GRE_K		0x2000
#define GRE_S		0x1000
#define GRE_VERSION	0x0007
#define ETHER_HDRLEN_	14

#define get_be16(p)	((unsigned int)(p)[0] << 8 | (p)[1])
#define get_be32(p)	((uint32_t)(p)[0] << 24 | (uint32_t)(p)[1] << 16 | \
			    (uint32_t)(p)[2] << 8 | (p)[3])

/* The ERSPAN II or III header at h. */
static int
erspan_parse_header(const unsigned char *pkt, size_t caplen, size_t h,
    struct pcapint_erspan *info)
{
	const unsigned char *e = pkt + h;
	unsigned int w0;

	if (caplen - h < 1)
		return (PCAPINT_ERSPAN_TRUNCATED);
	info->version = e[0] >> 4;
	if (info->version != info->type - 1)	/* II: 1, III: 2 */
		return (PCAPINT_ERSPAN_BAD_VERSION);
	if (info->type == 2) {
		if (caplen - h < 8)
			return (PCAPINT_ERSPAN_TRUNCATED);
		info->hdrlen = 8;
		info->index = get_be32(e + 4) & 0x000fffff;
	} else {
		if (caplen - h < 12)
			return (PCAPINT_ERSPAN_TRUNCATED);
		info->timestamp = get_be32(e + 4);
		info->sgt = get_be16(e + 8);
		info->p = e[10] >> 7;
		info->ft = (e[10] >> 2) & 0x1f;
		info->hw_id = (get_be16(e + 10) >> 4) & 0x3f;
		info->d = (e[11] >> 3) & 1;
		info->gra = (e[11] >> 1) & 3;
		info->o = e[11] & 1;
		/* Only frame type 0 has an Ethernet header to hand on. */
		if (info->ft != 0)
			return (PCAPINT_ERSPAN_NOT_ETHERNET);
		info->hdrlen = 12;
		if (info->o) {
			if (caplen - h < 20)
				return (PCAPINT_ERSPAN_TRUNCATED);
			info->hdrlen = 20;
			info->platf_id = e[12] >> 2;
			info->platf_info =
			    ((uint64_t)(get_be32(e + 12) & 0x03ffffff) << 32) |
			    get_be32(e + 16);
		}
	}
	/* Word 0 has the same layout in types II and III. */
	w0 = (unsigned int)get_be32(e);
	info->vlan = (w0 >> 16) & 0x0fff;
	info->cos = (w0 >> 13) & 0x7;
	info->en = (w0 >> 11) & 0x3;
	info->t = (w0 >> 10) & 0x1;
	info->session = w0 & 0x3ff;
	return (PCAPINT_ERSPAN_OK);
}

int
pcapint_erspan_decap(const unsigned char *pkt, size_t caplen,
    struct pcapint_erspan *info)
{
	size_t pos, ip, gre, h, ip_end, opt;
	unsigned int ethertype, proto, ihl, flags;
	int ret;

	memset(info, 0, sizeof(*info));
	/* Up to two outer tags, then IPv4 or IPv6. */
	for (pos = 12;; pos += 4) {
		if (caplen < pos + 2)
			return (PCAPINT_ERSPAN_TRUNCATED);
		ethertype = get_be16(pkt + pos);
		if ((ethertype != TPID_8021Q && ethertype != TPID_8021AD) ||
		    info->outer_tags == 2)
			break;
		info->outer_tags++;
	}
	info->ip_off = ip = pos + 2;
	if (ethertype == ETHERTYPE_IPV4_) {
		if (caplen < ip + 20)
			return (PCAPINT_ERSPAN_TRUNCATED);
		info->ip_version = 4;
		if (pkt[ip + 9] != IPPROTO_GRE_)
			return (PCAPINT_ERSPAN_NOT_GRE);
		ihl = pkt[ip] & 0x0f;
		if ((pkt[ip] >> 4) != 4 || ihl < 5)
			return (PCAPINT_ERSPAN_BAD_IP);
		/* MF or a fragment offset: not a whole datagram. */
		if ((get_be16(pkt + ip + 6) & 0x3fff) != 0)
			return (PCAPINT_ERSPAN_FRAGMENT);
		gre = ip + ihl * 4;
		ip_end = ip + get_be16(pkt + ip + 2);
	} else if (ethertype == ETHERTYPE_IPV6_) {
		if (caplen < ip + 40)
			return (PCAPINT_ERSPAN_TRUNCATED);
		info->ip_version = 6;
		if (pkt[ip + 6] != IPPROTO_GRE_)
			return (PCAPINT_ERSPAN_NOT_GRE);
		if ((pkt[ip] >> 4) != 6)
			return (PCAPINT_ERSPAN_BAD_IP);
		gre = ip + 40;
		ip_end = ip + 40 + get_be16(pkt + ip + 4);
	} else
		return (PCAPINT_ERSPAN_NOT_IP);

	/* GRE, RFC 2784 and RFC 2890. */
	info->gre_off = gre;
	if (caplen < gre + 4)
		return (PCAPINT_ERSPAN_TRUNCATED);
	info->gre_flags = flags = get_be16(pkt + gre);
	proto = get_be16(pkt + gre + 2);
	if (proto != PCAPINT_ERSPAN_PROTO_I_II &&
	    proto != PCAPINT_ERSPAN_PROTO_III)
		return (PCAPINT_ERSPAN_NOT_ERSPAN);
	/* Routing (RFC 1701) or version 1 (PPTP) change the layout. */
	if ((flags & (GRE_R | GRE_VERSION)) != 0)
		return (PCAPINT_ERSPAN_GRE_UNSUPPORTED);
	info->gre_hdrlen = 4 + ((flags & GRE_C) ? 4 : 0) +
	    ((flags & GRE_K) ? 4 : 0) + ((flags & GRE_S) ? 4 : 0);
	if (caplen < gre + info->gre_hdrlen)
		return (PCAPINT_ERSPAN_TRUNCATED);
	opt = gre + ((flags & GRE_C) ? 8 : 4);
	if (flags & GRE_K) {
		info->has_key = 1;
		info->key = get_be32(pkt + opt);
		opt += 4;
	}
	if (flags & GRE_S) {
		info->has_seq = 1;
		info->seq = get_be32(pkt + opt);
	}
	h = gre + info->gre_hdrlen;

	/* The S bit, not the GRE version, tells type II: devices send 0. */
	info->type = proto == PCAPINT_ERSPAN_PROTO_III ? 3 :
	    (flags & GRE_S) ? 2 : 1;
	if (info->type != 1 && (ret = erspan_parse_header(pkt, caplen, h,
	    info)) != PCAPINT_ERSPAN_OK)
		return (ret);
	info->inner_off = h + info->hdrlen;

	/* The IP length, so that Ethernet padding is not inner data. */
	if (ip_end < info->inner_off + ETHER_HDRLEN_)
		return (PCAPINT_ERSPAN_BAD_LENGTH);
	if (caplen < info->inner_off)
		return (PCAPINT_ERSPAN_TRUNCATED);
	info->inner_len = ip_end - info->inner_off;
	info->inner_caplen = caplen - info->inner_off;
	if (info->inner_caplen > info->inner_len)
		info->inner_caplen = info->inner_len;
	return (PCAPINT_ERSPAN_OK);
}

static const char *const erspan_reasons[] = {
	[PCAPINT_ERSPAN_OK] = "ERSPAN",
	[PCAPINT_ERSPAN_NOT_IP] = "not IPv4 or IPv6",
	[PCAPINT_ERSPAN_NOT_GRE] = "not GRE",
	[PCAPINT_ERSPAN_FRAGMENT] = "IPv4 fragment",
	[PCAPINT_ERSPAN_GRE_UNSUPPORTED] = "GRE routing or version not 0",
	[PCAPINT_ERSPAN_NOT_ERSPAN] = "GRE, not ERSPAN",
	[PCAPINT_ERSPAN_BAD_IP] = "bad IP version or header length",
	[PCAPINT_ERSPAN_BAD_VERSION] = "bad ERSPAN version",
	[PCAPINT_ERSPAN_NOT_ETHERNET] = "ERSPAN III frame type not Ethernet",
	[PCAPINT_ERSPAN_BAD_LENGTH] = "IP length too short for ERSPAN",
	[PCAPINT_ERSPAN_TRUNCATED] = "truncated ERSPAN headers"
};

const char *
pcapint_erspan_strerror(int reason)
{
	if (reason < 0 ||
	    reason >= (int)(sizeof(erspan_reasons) / sizeof(erspan_reasons[0])))
		return ("unknown ERSPAN error");
	return (erspan_reasons[reason]);
}
