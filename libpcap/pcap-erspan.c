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
 * ERSPAN decapsulation in user space.  The rules are listed in
 * pcap-erspan.h; gen_erspan() in gencode.c generates BPF for the same
 * rules, and the two must be changed together.
 *
 * This file depends on nothing but the C library, so test programs can
 * compile it on its own.
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

static unsigned int
get_be16(const unsigned char *p)
{
	return ((unsigned int)p[0] << 8 | p[1]);
}

static uint32_t
get_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3]);
}

/*
 * Parse the ERSPAN II or III header at "h", whose first byte is known
 * to be captured.  Returns a reason code.
 */
static int
erspan_parse_header(const unsigned char *pkt, size_t caplen, size_t h,
    struct pcapint_erspan *info)
{
	const unsigned char *e = pkt + h;
	unsigned int w0;

	info->version = e[0] >> 4;
	if (info->type == 2 && info->version != 1)
		return (PCAPINT_ERSPAN_BAD_VERSION);
	if (info->type == 3 && info->version != 2)
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
		/*
		 * Only frame type 0 is an Ethernet frame; type 2 (IP) and
		 * the rest have no Ethernet header to hand to a filter or
		 * a dissector that expects one.
		 */
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
	unsigned int ethertype, proto, ihl;
	int ret;

	memset(info, 0, sizeof(*info));

	/* Up to two outer tags, then IPv4 or IPv6. */
	pos = 12;
	if (caplen < pos + 2)
		return (PCAPINT_ERSPAN_TRUNCATED);
	ethertype = get_be16(pkt + pos);
	while ((ethertype == TPID_8021Q || ethertype == TPID_8021AD) &&
	    info->outer_tags < 2) {
		info->outer_tags++;
		pos += 4;
		if (caplen < pos + 2)
			return (PCAPINT_ERSPAN_TRUNCATED);
		ethertype = get_be16(pkt + pos);
	}
	ip = pos + 2;
	info->ip_off = ip;

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
	info->gre_flags = get_be16(pkt + gre);
	proto = get_be16(pkt + gre + 2);
	if (proto != PCAPINT_ERSPAN_PROTO_I_II &&
	    proto != PCAPINT_ERSPAN_PROTO_III)
		return (PCAPINT_ERSPAN_NOT_ERSPAN);
	/*
	 * A routing field (RFC 1701) or another GRE version (1 is PPTP)
	 * changes the header layout; such packets are not ours.
	 */
	if ((info->gre_flags & (GRE_R | GRE_VERSION)) != 0)
		return (PCAPINT_ERSPAN_GRE_UNSUPPORTED);
	info->gre_hdrlen = 4;
	if (info->gre_flags & GRE_C)
		info->gre_hdrlen += 4;
	if (info->gre_flags & GRE_K)
		info->gre_hdrlen += 4;
	if (info->gre_flags & GRE_S)
		info->gre_hdrlen += 4;
	if (caplen < gre + info->gre_hdrlen)
		return (PCAPINT_ERSPAN_TRUNCATED);
	opt = gre + 4;
	if (info->gre_flags & GRE_C)
		opt += 4;
	if (info->gre_flags & GRE_K) {
		info->has_key = 1;
		info->key = get_be32(pkt + opt);
		opt += 4;
	}
	if (info->gre_flags & GRE_S) {
		info->has_seq = 1;
		info->seq = get_be32(pkt + opt);
	}
	h = gre + info->gre_hdrlen;

	/*
	 * The type is told by the protocol and, for 0x88be, by the S bit,
	 * never by the GRE version field: devices send type II with
	 * version 0.
	 */
	if (proto == PCAPINT_ERSPAN_PROTO_I_II &&
	    (info->gre_flags & GRE_S) == 0) {
		info->type = 1;
		info->hdrlen = 0;
	} else {
		info->type = (proto == PCAPINT_ERSPAN_PROTO_I_II) ? 2 : 3;
		if (caplen < h + 1)
			return (PCAPINT_ERSPAN_TRUNCATED);
		ret = erspan_parse_header(pkt, caplen, h, info);
		if (ret != PCAPINT_ERSPAN_OK)
			return (ret);
	}
	info->inner_off = h + info->hdrlen;

	/*
	 * The inner length comes from the IP length, not from the
	 * captured length, so that Ethernet padding of a short outer
	 * frame is not taken for inner data.
	 */
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

const char *
pcapint_erspan_strerror(int reason)
{
	switch (reason) {

	case PCAPINT_ERSPAN_OK:
		return ("ERSPAN");
	case PCAPINT_ERSPAN_NOT_IP:
		return ("not IPv4 or IPv6");
	case PCAPINT_ERSPAN_NOT_GRE:
		return ("not GRE");
	case PCAPINT_ERSPAN_FRAGMENT:
		return ("IPv4 fragment");
	case PCAPINT_ERSPAN_GRE_UNSUPPORTED:
		return ("GRE routing or version not 0");
	case PCAPINT_ERSPAN_NOT_ERSPAN:
		return ("GRE, not ERSPAN");
	case PCAPINT_ERSPAN_BAD_IP:
		return ("bad IP version or header length");
	case PCAPINT_ERSPAN_BAD_VERSION:
		return ("bad ERSPAN version");
	case PCAPINT_ERSPAN_NOT_ETHERNET:
		return ("ERSPAN III frame type not Ethernet");
	case PCAPINT_ERSPAN_BAD_LENGTH:
		return ("IP length too short for ERSPAN");
	case PCAPINT_ERSPAN_TRUNCATED:
		return ("truncated ERSPAN headers");
	}
	return ("unknown ERSPAN error");
}
