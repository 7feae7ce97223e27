/*
 * sluice-seq.h -- the sequence marker that sluice-gen puts in every frame
 * and that sluice-seqcheck looks for.
 *
 * The marker is 8 bytes: the magic "SLSQ" (0x53 0x4c 0x53 0x51) followed
 * by a 32-bit sequence number in network byte order.  It sits near the
 * front of the frame, so it survives a small snapshot length (-s 64 and
 * up keep it):
 *
 *	UDP frames (fixed*, random*, slammer): the first 8 bytes of the UDP
 *	payload.  With an untagged Ethernet header and a 20-byte IPv4
 *	header that is frame offset 42 (magic) and 46 (sequence number).
 *
 *	TCP frames (http): the first TCP option, kind 254 (the RFC 6994
 *	experimental kind), length 12, ExID 0x534c ("SL"), then the 8-byte
 *	marker.  The marker is not in the TCP payload so that the payload
 *	still starts with "GET ", which payload filters such as
 *	tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420 rely on.  Untagged,
 *	that is frame offset 58 (magic) and 62 (sequence number).
 *
 * The parser below walks Ethernet (with up to 8 802.1Q/802.1ad tags),
 * Linux cooked v1/v2 and raw IP headers, then IPv4 (any IHL) or IPv6 (no
 * extension headers), rather than trusting fixed offsets, so it also
 * works on VLAN-tagged or "-i any" captures.  Over IP it also walks one
 * level of GRE carrying ERSPAN type I, II or III (Ethernet frame type
 * only) or transparent Ethernet bridging, so the frames of
 * "sluice-gen --erspan" are counted in a raw capture too.
 */
#ifndef SLUICE_SEQ_H
#define SLUICE_SEQ_H

#include <stddef.h>
#include <stdint.h>

#define SLSQ_MAGIC0	0x53	/* 'S' */
#define SLSQ_MAGIC1	0x4c	/* 'L' */
#define SLSQ_MAGIC2	0x53	/* 'S' */
#define SLSQ_MAGIC3	0x51	/* 'Q' */
#define SLSQ_LEN	8	/* magic + sequence number */

#define SLSQ_TCPOPT_KIND	254
#define SLSQ_TCPOPT_LEN		12	/* kind, len, ExID, marker */
#define SLSQ_TCPOPT_EXID	0x534c

/* Link types the parser understands (values of LINKTYPE_*). */
#define SLSQ_LT_EN10MB		1
#define SLSQ_LT_RAW		101
#define SLSQ_LT_LINUX_SLL	113
#define SLSQ_LT_LINUX_SLL2	276

static inline unsigned int
slsq_get16(const unsigned char *p)
{
	return ((unsigned int)p[0] << 8 | p[1]);
}

static inline uint32_t
slsq_get32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

static inline void
slsq_put(unsigned char *p, uint32_t seq)
{
	p[0] = SLSQ_MAGIC0;
	p[1] = SLSQ_MAGIC1;
	p[2] = SLSQ_MAGIC2;
	p[3] = SLSQ_MAGIC3;
	p[4] = (unsigned char)(seq >> 24);
	p[5] = (unsigned char)(seq >> 16);
	p[6] = (unsigned char)(seq >> 8);
	p[7] = (unsigned char)seq;
}

static inline int
slsq_is_magic(const unsigned char *p)
{
	return (p[0] == SLSQ_MAGIC0 && p[1] == SLSQ_MAGIC1 &&
	    p[2] == SLSQ_MAGIC2 && p[3] == SLSQ_MAGIC3);
}

static inline int
slsq_find_depth(int linktype, const unsigned char *p, size_t caplen,
    uint32_t *seq, int depth);

/*
 * The GRE packet at p[len]: if it carries an Ethernet frame (ERSPAN I,
 * II, III or TEB), look for the marker in it.
 */
static inline int
slsq_find_gre(const unsigned char *p, size_t len, uint32_t *seq, int depth)
{
	unsigned int flags, proto, word;
	size_t hl, ers;

	if (len < 4)
		return (0);
	flags = slsq_get16(p);
	/* Routing present or a version other than 0: not RFC 2784/2890. */
	if ((flags & 0x4000) != 0 || (flags & 0x0007) != 0)
		return (0);
	hl = 4 + ((flags & 0x8000) ? 4 : 0) + ((flags & 0x2000) ? 4 : 0) +
	    ((flags & 0x1000) ? 4 : 0);
	proto = slsq_get16(p + 2);
	if (proto == 0x88be)
		ers = (flags & 0x1000) ? 8 : 0;	/* type II : type I */
	else if (proto == 0x22eb) {
		if (len < hl + 12)
			return (0);
		word = slsq_get16(p + hl + 10);
		if (((word >> 10) & 0x1f) != 0)	/* FT: not Ethernet */
			return (0);
		ers = 12 + ((word & 1) ? 8 : 0);	/* O: subheader */
	} else if (proto == 0x6558)
		ers = 0;
	else
		return (0);
	if (len < hl + ers)
		return (0);
	return (slsq_find_depth(SLSQ_LT_EN10MB, p + hl + ers, len - hl - ers,
	    seq, depth + 1));
}

/*
 * Find the marker in a frame of link type "linktype" of which "caplen"
 * bytes were captured.  Returns 1 and sets *seq when found, 0 when the
 * frame is not one of ours (or was cut before the marker).
 */
static inline int
slsq_find(int linktype, const unsigned char *p, size_t caplen, uint32_t *seq)
{
	return (slsq_find_depth(linktype, p, caplen, seq, 0));
}

static inline int
slsq_find_depth(int linktype, const unsigned char *p, size_t caplen,
    uint32_t *seq, int depth)
{
	size_t off, l4, hl;
	unsigned int etype, proto;
	int tags;

	switch (linktype) {

	case SLSQ_LT_EN10MB:
		if (caplen < 14)
			return (0);
		etype = slsq_get16(p + 12);
		off = 14;
		/* A bounded number of tags: a bogus frame must not loop. */
		for (tags = 0; tags < 8 &&
		    (etype == 0x8100 || etype == 0x88a8 || etype == 0x9100);
		    tags++) {
			if (caplen < off + 4)
				return (0);
			etype = slsq_get16(p + off + 2);
			off += 4;
		}
		break;

	case SLSQ_LT_LINUX_SLL:
		if (caplen < 16)
			return (0);
		etype = slsq_get16(p + 14);
		off = 16;
		break;

	case SLSQ_LT_LINUX_SLL2:
		if (caplen < 20)
			return (0);
		etype = slsq_get16(p);
		off = 20;
		break;

	case SLSQ_LT_RAW:
		if (caplen < 1)
			return (0);
		etype = (p[0] >> 4) == 6 ? 0x86dd : 0x0800;
		off = 0;
		break;

	default:
		return (0);
	}

	if (etype == 0x0800) {
		if (caplen < off + 20 || (p[off] >> 4) != 4)
			return (0);
		hl = (size_t)(p[off] & 0x0f) * 4;
		if (hl < 20)
			return (0);
		/* A fragment other than the first carries no L4 header. */
		if ((slsq_get16(p + off + 6) & 0x1fff) != 0)
			return (0);
		proto = p[off + 9];
		l4 = off + hl;
	} else if (etype == 0x86dd) {
		if (caplen < off + 40 || (p[off] >> 4) != 6)
			return (0);
		proto = p[off + 6];
		l4 = off + 40;
	} else
		return (0);

	/* One level of encapsulation: a bogus frame must not recurse. */
	if (proto == 47 && depth == 0 && caplen > l4)
		return (slsq_find_gre(p + l4, caplen - l4, seq, depth));
	if (proto == 17) {
		if (caplen < l4 + 8 + SLSQ_LEN || !slsq_is_magic(p + l4 + 8))
			return (0);
		*seq = slsq_get32(p + l4 + 12);
		return (1);
	}
	if (proto == 6) {
		if (caplen < l4 + 20 + SLSQ_TCPOPT_LEN)
			return (0);
		hl = (size_t)(p[l4 + 12] >> 4) * 4;
		if (hl < 20 + SLSQ_TCPOPT_LEN)
			return (0);
		off = l4 + 20;
		if (p[off] != SLSQ_TCPOPT_KIND ||
		    p[off + 1] != SLSQ_TCPOPT_LEN ||
		    slsq_get16(p + off + 2) != SLSQ_TCPOPT_EXID ||
		    !slsq_is_magic(p + off + 4))
			return (0);
		*seq = slsq_get32(p + off + 8);
		return (1);
	}
	return (0);
}

#endif /* SLUICE_SEQ_H */
