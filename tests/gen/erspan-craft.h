/*
 * erspan-craft.h -- build ERSPAN-in-GRE test frames.
 *
 * Self-contained (C99 and the C library only) so that any test program
 * or traffic generator can include it and compile erspan-craft.c.
 *
 * erspan_craft() wraps an inner Ethernet frame in ERSPAN type I, II or
 * III, GRE, outer IPv4 (with options) or IPv6, and an outer Ethernet
 * header with zero, one or two 802.1Q/802.1ad tags.  Checksums (IPv4
 * header, GRE when C is set) are computed.  The "breakage" flags make
 * deliberately wrong frames for negative tests.
 */

#ifndef erspan_craft_h
#define erspan_craft_h

#include <stddef.h>
#include <stdint.h>

/* Breakage flags (struct erspan_craft.breakage). */
#define ERSPAN_CRAFT_BAD_VERSION	0x0001	/* Ver 2 in II, 1 in III */
#define ERSPAN_CRAFT_GRE_ROUTING	0x0002	/* set the GRE R bit */
#define ERSPAN_CRAFT_GRE_VERSION	0x0004	/* GRE version 1 */
#define ERSPAN_CRAFT_FRAGMENT		0x0008	/* IPv4 MF bit set */
#define ERSPAN_CRAFT_FRAG_OFFSET	0x0010	/* IPv4 fragment offset 8 */
#define ERSPAN_CRAFT_SHORT_IPLEN	0x0020	/* IP length ends 4 bytes into the inner header */
#define ERSPAN_CRAFT_BAD_IP_VERSION	0x0040	/* IP version field wrong */
#define ERSPAN_CRAFT_NOT_GRE		0x0080	/* IP protocol 17 instead of 47 */
#define ERSPAN_CRAFT_OTHER_PROTO	0x0100	/* GRE protocol 0x6558 (TEB) */

struct erspan_craft {
	int		type;		/* ERSPAN type: 1, 2 or 3 */
	int		ipv6;		/* outer IPv6 instead of IPv4 */
	unsigned int	ip_optlen;	/* IPv4 option bytes: 0-40, multiple of 4 */
	unsigned int	tags;		/* outer tags: 0, 1 or 2 */
	unsigned int	outer_vid;	/* VLAN ID in the outer tag(s) */
	int		gre_csum;	/* GRE C bit (checksum present) */
	int		gre_key;	/* GRE K bit */
	uint32_t	key;
	int		gre_seq;	/* GRE S bit, type III only: I never
					   has it and II always has it */
	uint32_t	seq;
	unsigned int	session;	/* 10 bits */
	unsigned int	vlan;		/* ERSPAN VLAN, 12 bits */
	unsigned int	cos;		/* 3 bits */
	unsigned int	en;		/* En (II) or BSO (III), 2 bits */
	int		t;		/* T bit */
	uint32_t	index;		/* type II, 20 bits */
	uint32_t	timestamp;	/* type III */
	unsigned int	sgt;		/* type III, 16 bits */
	unsigned int	hw_id;		/* type III, 6 bits */
	int		d;		/* type III direction bit */
	unsigned int	gra;		/* type III, 2 bits */
	unsigned int	ft;		/* type III frame type, 5 bits */
	int		o;		/* type III platform subheader */
	unsigned int	platf_id;	/* with o: 6 bits */
	uint64_t	platf_info;	/* with o: low 58 bits */
	unsigned int	breakage;	/* ERSPAN_CRAFT_* flags */
	size_t		pad_to;		/* pad the outer frame with zeros to
					   this many bytes (not in IP length) */
	size_t		truncate;	/* if not 0, keep only this many bytes */
};

/* Offsets into a frame that erspan_craft() built (for test asserts). */
struct erspan_craft_layout {
	size_t		ip_off;
	size_t		gre_off;
	size_t		erspan_off;	/* == inner_off for type I */
	size_t		inner_off;
	size_t		inner_len;	/* as the IP length says */
	size_t		frame_len;	/* before truncation */
};

/*
 * Build the frame into out[out_size].  Returns its length (after
 * "truncate"), or 0 if the spec is invalid or out_size is too small.
 */
size_t erspan_craft(const struct erspan_craft *spec,
    const unsigned char *inner, size_t inner_len,
    unsigned char *out, size_t out_size);

/* Same, and also report where the headers went (layout may be NULL). */
size_t erspan_craft_layout(const struct erspan_craft *spec,
    const unsigned char *inner, size_t inner_len,
    unsigned char *out, size_t out_size, struct erspan_craft_layout *layout);

/*
 * Build a small inner Ethernet/IPv4/TCP (or UDP) frame to port "dport"
 * whose payload is the text "sluice-<n>" so that every frame can be
 * told apart.  Returns its length, or 0 if out_size is too small.
 */
size_t erspan_craft_inner(unsigned int n, int udp, unsigned int dport,
    unsigned char *out, size_t out_size);

#endif /* erspan_craft_h */
