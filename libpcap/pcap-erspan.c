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

/* Tests compile this file alone, so it uses only the C library. */
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
#define get_be32(p)	((uint32_t)get_be16(p) << 16 | get_be16((p) + 2))

int
pcapint_erspan_decap(const unsigned char *pkt, size_t caplen,
    struct pcapint_erspan *info)
{
	size_t pos, ip, gre, h, ip_end, opt;
	unsigned int ethertype, proto, ihl, flags;
	int v6;

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
	v6 = ethertype == ETHERTYPE_IPV6_;
	if (ethertype != ETHERTYPE_IPV4_ && !v6)
		return (PCAPINT_ERSPAN_NOT_IP);
	if (caplen < ip + (v6 ? 40 : 20))
		return (PCAPINT_ERSPAN_TRUNCATED);
	info->ip_version = v6 ? 6 : 4;
	if (pkt[ip + (v6 ? 6 : 9)] != IPPROTO_GRE_)
		return (PCAPINT_ERSPAN_NOT_GRE);
	ihl = v6 ? 10 : pkt[ip] & 0x0f;		/* IPv6: 40 bytes, no options */
	if ((pkt[ip] >> 4) != info->ip_version || ihl < 5)
		return (PCAPINT_ERSPAN_BAD_IP);
	/* MF or a fragment offset: not a whole datagram. */
	if (!v6 && (get_be16(pkt + ip + 6) & 0x3fff) != 0)
		return (PCAPINT_ERSPAN_FRAGMENT);
	info->gre_off = gre = ip + ihl * 4;
	ip_end = (v6 ? gre : ip) + get_be16(pkt + ip + (v6 ? 4 : 2));
	/* GRE (RFC 2784, 2890): checksum and reserved, key, sequence. */
	if (caplen < gre + 4)
		return (PCAPINT_ERSPAN_TRUNCATED);
	flags = get_be16(pkt + gre);
	proto = get_be16(pkt + gre + 2);
	if (proto != PCAPINT_ERSPAN_PROTO_I_II &&
	    proto != PCAPINT_ERSPAN_PROTO_III)
		return (PCAPINT_ERSPAN_NOT_ERSPAN);
	/* Routing (RFC 1701) or version 1 (PPTP) change the layout. */
	if ((flags & (GRE_R | GRE_VERSION)) != 0)
		return (PCAPINT_ERSPAN_GRE_UNSUPPORTED);
	opt = gre + ((flags & GRE_C) ? 8 : 4);
	info->has_key = (flags & GRE_K) != 0;
	info->has_seq = (flags & GRE_S) != 0;
	h = opt + 4 * (size_t)(info->has_key + info->has_seq);
	info->gre_hdrlen = (unsigned int)(h - gre);
	if (caplen < h)
		return (PCAPINT_ERSPAN_TRUNCATED);
	if (info->has_key)
		info->key = get_be32(pkt + opt);
	if (info->has_seq)
		info->seq = get_be32(pkt + opt + 4 * (size_t)info->has_key);
	/* The S bit, not the GRE version, tells type II: devices send 0. */
	info->type = proto == PCAPINT_ERSPAN_PROTO_III ? 3 :
	    (flags & GRE_S) ? 2 : 1;
	if (info->type != 1) {
		const unsigned char *e = pkt + h;

		if (caplen - h < 1)
			return (PCAPINT_ERSPAN_TRUNCATED);
		info->version = e[0] >> 4;
		if (info->version != info->type - 1)	/* II: 1, III: 2 */
			return (PCAPINT_ERSPAN_BAD_VERSION);
		info->hdrlen = info->type == 2 ? 8 : 12;
		if (caplen - h < info->hdrlen)
			return (PCAPINT_ERSPAN_TRUNCATED);
		if (info->type == 2)
			info->index = get_be32(e + 4) & 0x000fffff;
		else {
			info->timestamp = get_be32(e + 4);
			info->sgt = get_be16(e + 8);
			info->p = e[10] >> 7;
			info->ft = (e[10] >> 2) & 0x1f;
			info->hw_id = (get_be16(e + 10) >> 4) & 0x3f;
			info->d = (e[11] >> 3) & 1;
			info->gra = (e[11] >> 1) & 3;
			info->o = e[11] & 1;
			if (info->ft != 0)	/* only type 0 is Ethernet */
				return (PCAPINT_ERSPAN_NOT_ETHERNET);
		}
		if (info->o) {		/* type III only */
			info->hdrlen = 20;
			if (caplen - h < 20)
				return (PCAPINT_ERSPAN_TRUNCATED);
			info->platf_id = e[12] >> 2;
			info->platf_info = (uint64_t)(get_be32(e + 12) &
			    0x03ffffff) << 32 | get_be32(e + 16);
		}
		info->vlan = get_be16(e) & 0x0fff;
		info->cos = e[2] >> 5;
		info->en = (e[2] >> 3) & 3;
		info->t = (e[2] >> 2) & 1;
		info->session = get_be16(e + 2) & 0x3ff;
	}
	info->inner_off = h + info->hdrlen;
	/* The IP length, so that Ethernet padding is not inner data. */
	if (ip_end < info->inner_off + ETHER_HDRLEN_)
		return (PCAPINT_ERSPAN_BAD_LENGTH);
	info->inner_len = ip_end - info->inner_off;
	info->inner_caplen = caplen - info->inner_off;
	if (info->inner_caplen > info->inner_len)
		info->inner_caplen = info->inner_len;
	return (PCAPINT_ERSPAN_OK);
}
