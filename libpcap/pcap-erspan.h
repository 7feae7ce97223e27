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
 *
 * Decapsulation of ERSPAN I, II and III (frame type 0) in GRE over IPv4
 * or IPv6 (no extension header) in Ethernet.  It accepts exactly what
 * gen_erspan() in gencode.c matches (change both), so that a frame the
 * kernel passed can always be stripped and no other is taken for ERSPAN.
 */

#ifndef pcap_erspan_h
#define pcap_erspan_h

#include <stddef.h>
#include <pcap/pcap-inttypes.h>

#define PCAPINT_ERSPAN_PROTO_I_II	0x88be	/* GRE protocol, type I/II */
#define PCAPINT_ERSPAN_PROTO_III	0x22eb	/* GRE protocol, type III */
#define PCAPINT_ERSPAN_MAX_SESSION	1023	/* 10-bit session ID */
/* Two tags (22), IPv4 options (60), GRE C, K, S (16), type III with O (20) */
#define PCAPINT_ERSPAN_MAX_OUTER	(22 + 60 + 16 + 20)

/* Results of pcapint_erspan_decap(): why a frame was not decapsulated. */
#define PCAPINT_ERSPAN_OK		0
#define PCAPINT_ERSPAN_NOT_IP		1	/* not IPv4/IPv6 after the tags */
#define PCAPINT_ERSPAN_NOT_GRE		2	/* IP, but not GRE */
#define PCAPINT_ERSPAN_FRAGMENT		3	/* IPv4 fragment */
#define PCAPINT_ERSPAN_GRE_UNSUPPORTED	4	/* GRE R bit or version != 0 */
#define PCAPINT_ERSPAN_NOT_ERSPAN	5	/* GRE, other protocol */
#define PCAPINT_ERSPAN_BAD_IP		6	/* IP version or IHL wrong */
#define PCAPINT_ERSPAN_BAD_VERSION	7	/* ERSPAN Ver field wrong */
#define PCAPINT_ERSPAN_NOT_ETHERNET	8	/* type III with FT != 0 */
#define PCAPINT_ERSPAN_BAD_LENGTH	9	/* IP length too short */
#define PCAPINT_ERSPAN_TRUNCATED	10	/* headers cut by the snaplen */

struct pcapint_erspan {
	size_t		inner_off;	/* offset of the inner Ethernet header */
	size_t		inner_caplen;	/* captured bytes of the inner frame */
	size_t		inner_len;	/* its length per the outer IP length */
	unsigned int	outer_tags;	/* outer 802.1Q/802.1ad tags, 0-2 */
	unsigned int	ip_version;	/* 4 or 6 */
	size_t		ip_off, gre_off;	/* IP and GRE header offsets */
	unsigned int	gre_hdrlen;	/* 4, 8, 12 or 16 */
	int		has_key, has_seq;	/* GRE K and S bits */
	uint32_t	key, seq;
	/* ERSPAN header (type I has none: only "type" is set). */
	unsigned int	type;		/* 1, 2 or 3 */
	unsigned int	hdrlen;		/* 0, 8, 12 or 20 */
	unsigned int	version;	/* Ver field: 1 (II) or 2 (III) */
	/* Named as in the header; en: En (II) or BSO (III); t: truncated. */
	unsigned int	vlan, cos, en, t, session;
	uint32_t	index;		/* type II: 20-bit port index */
	/* Type III; d: 1 egress, gra: timestamp granularity; platf_ with O */
	uint32_t	timestamp;
	unsigned int	sgt, p, ft, hw_id, d, gra, o, platf_id;
	uint64_t	platf_info;	/* low 58 bits */
};

/* Decapsulate pkt; "info" is filled in only on PCAPINT_ERSPAN_OK. */
int	pcapint_erspan_decap(const unsigned char *pkt, size_t caplen,
	    struct pcapint_erspan *info);

#endif /* pcap_erspan_h */
