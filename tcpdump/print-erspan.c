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

/* \summary: Cisco Encapsulated Remote SPAN (ERSPAN) printer */

/*
 * ERSPAN carries mirrored frames in GRE (draft-foschiano-erspan-03):
 *
 *  type I    GRE protocol 0x88be, no sequence number, no ERSPAN header;
 *  type II   GRE protocol 0x88be with a sequence number, then
 *
 *     0                   1                   2                   3
 *     0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *    +-------+-----------------------+-----+---+-+-------------------+
 *    |  Ver  |         VLAN          | COS | En|T|    Session ID     |
 *    +-------+---------------+-------+-----+---+-+-------------------+
 *    |      Reserved         |                 Index                 |
 *    +-----------------------+---------------------------------------+
 *
 *  type III  GRE protocol 0x22eb, then
 *
 *    +-------+-----------------------+-----+---+-+-------------------+
 *    |  Ver  |         VLAN          | COS |BSO|T|    Session ID     |
 *    +-------+-----------------------+-----+---+-+-------------------+
 *    |                          Timestamp                            |
 *    +-------------------------------+-+---------+-----------+-+---+-+
 *    |              SGT              |P|    FT   |   Hw ID   |D|Gra|O|
 *    +-------------------------------+-+---------+-----------+-+---+-+
 *
 *    and, when O is set, an 8-byte platform specific subheader whose
 *    first 6 bits are a platform ID.
 *
 * The type of 0x88be packets is told by the GRE S bit, not by the GRE
 * version: type II is sent with GRE version 0.
 *
 * The output is the one of the ERSPAN printer on tcpdump's development
 * branch, so that scripts that read it keep working on the next release:
 * "erspan", then, with -v, the type ("type2"), the session ID, the
 * encapsulation of type II or the bad/short frame status (BSO) of type
 * III, with -v the class of service, the truncation bit and the type II
 * index, the frame type of type III ("ft Ethernet"), and then the
 * mirrored frame.  Type I has no header and prints as "erspan type1".
 * A type III frame of another type than Ethernet is named, not decoded
 * as Ethernet.
 */

#include <config.h>

#include "netdissect-stdinc.h"

#define ND_LONGJMP_FROM_TCHECK
#include "netdissect.h"
#include "extract.h"

#define ERSPAN_GRE_S		0x1000	/* GRE sequence number present */
#define ERSPAN_PROTO_III	0x22eb

#define ERSPAN_II_VER		1
#define ERSPAN_III_VER		2

/* Word 0, types II and III. */
#define ERSPAN_VER(w)		((w) >> 28)
#define ERSPAN_VLAN(w)		(((w) >> 16) & 0xfff)
#define ERSPAN_COS(w)		(((w) >> 13) & 0x7)
#define ERSPAN_EN_BSO(w)	(((w) >> 11) & 0x3)
#define ERSPAN_T		0x00000400U
#define ERSPAN_SESSION(w)	((w) & 0x3ff)

/* Type II encapsulation of the mirrored frame (En). */
#define ERSPAN_EN_UNTAGGED	0
#define ERSPAN_EN_ISL		1
#define ERSPAN_EN_8021Q		2
#define ERSPAN_EN_PRESERVED	3

/*
 * Type III, word 2's low 16 bits: the frame type, and O, which says a
 * platform subheader follows.
 */
#define ERSPAN_III_FT(w2)	(((w2) >> 10) & 0x1f)
#define ERSPAN_III_O		0x0001

/* Type III frame types. */
#define ERSPAN_III_FT_ETHERNET	0
#define ERSPAN_III_FT_IP	2

#define ERSPAN_II_HDRLEN	8
#define ERSPAN_III_HDRLEN	12
#define ERSPAN_III_SUBHDRLEN	8

static const struct tok erspan_bso_values[] = {
	{ 0, "Good/unknown" },
	{ 1, "Short" },
	{ 2, "Oversized" },
	{ 3, "Bad" },
	{ 0, NULL }
};

static const struct tok erspan_ft_values[] = {
	{ ERSPAN_III_FT_ETHERNET, "Ethernet" },
	{ ERSPAN_III_FT_IP, "IP" },
	{ 0, NULL }
};

/*
 * Word 0 of a type II or III header: returns it, or prints the version
 * that is not "ver" and returns 0 (a valid word 0 is never 0: its
 * version is not).
 */
static uint32_t
erspan_word0(netdissect_options *ndo, const u_char *bp, u_int ver,
    const char *type)
{
	uint32_t w0;

	w0 = GET_BE_U_4(bp);
	if (ERSPAN_VER(w0) != ver) {
		ND_PRINT(" erspan-unknown-version-%x", ERSPAN_VER(w0));
		return (0);
	}
	if (ndo->ndo_vflag)
		ND_PRINT(" %s", type);
	ND_PRINT(" session %u", ERSPAN_SESSION(w0));
	return (w0);
}

/* The class of service and the truncation bit, with -v. */
static void
erspan_cos_print(netdissect_options *ndo, uint32_t w0)
{
	if (ndo->ndo_vflag) {
		ND_PRINT(" cos %u", ERSPAN_COS(w0));
		if (w0 & ERSPAN_T)
			ND_PRINT(" truncated");
	}
}

static void
erspan_frame_print(netdissect_options *ndo, const u_char *bp, u_int len)
{
	ND_PRINT(": ");
	ether_print(ndo, bp, len, ND_BYTES_AVAILABLE_AFTER(bp), NULL, NULL);
}

static void
erspan_ii_print(netdissect_options *ndo, const u_char *bp, u_int len)
{
	uint32_t w0;

	if (len < 4)
		goto invalid;
	w0 = erspan_word0(ndo, bp, ERSPAN_II_VER, "type2");
	if (w0 == 0)
		return;
	switch (ERSPAN_EN_BSO(w0)) {
	case ERSPAN_EN_ISL:
		ND_PRINT(" isl %u", ERSPAN_VLAN(w0));
		break;
	case ERSPAN_EN_8021Q:
		ND_PRINT(" vlan %u", ERSPAN_VLAN(w0));
		break;
	case ERSPAN_EN_PRESERVED:
		ND_PRINT(" vlan payload");
		break;
	}
	erspan_cos_print(ndo, w0);
	if (len < ERSPAN_II_HDRLEN)
		goto invalid;
	if (ndo->ndo_vflag)
		ND_PRINT(" index %u", GET_BE_U_4(bp + 4) & 0xfffff);
	else
		ND_TCHECK_LEN(bp, ERSPAN_II_HDRLEN);
	erspan_frame_print(ndo, bp + ERSPAN_II_HDRLEN, len - ERSPAN_II_HDRLEN);
	return;
invalid:
	nd_print_invalid(ndo);
}

static void
erspan_iii_print(netdissect_options *ndo, const u_char *bp, u_int len)
{
	uint32_t w0;
	uint16_t w2;
	u_int hdrlen, ft;

	if (len < 4)
		goto invalid;
	w0 = erspan_word0(ndo, bp, ERSPAN_III_VER, "type3");
	if (w0 == 0)
		return;
	ND_PRINT(" bso %s", tok2str(erspan_bso_values, "unknown %x",
	    ERSPAN_EN_BSO(w0)));
	erspan_cos_print(ndo, w0);
	/* The timestamp and the SGT are not printed. */
	if (len < ERSPAN_III_HDRLEN)
		goto invalid;
	hdrlen = ERSPAN_III_HDRLEN;
	w2 = GET_BE_U_2(bp + 10);
	ft = ERSPAN_III_FT(w2);
	ND_PRINT(" ft %s", tok2str(erspan_ft_values, "unknown %x", ft));
	if (w2 & ERSPAN_III_O) {
		if (len < ERSPAN_III_HDRLEN + ERSPAN_III_SUBHDRLEN)
			goto invalid;
		hdrlen += ERSPAN_III_SUBHDRLEN;
	}
	ND_TCHECK_LEN(bp, hdrlen);
	if (ft != ERSPAN_III_FT_ETHERNET) {
		/*
		 * Only an Ethernet frame is decoded; the others (IP,
		 * 802.11, ...) are not printed rather than printed wrongly.
		 */
		ND_PRINT(": Frame type unknown");
		return;
	}
	erspan_frame_print(ndo, bp + hdrlen, len - hdrlen);
	return;
invalid:
	nd_print_invalid(ndo);
}

/*
 * Print the GRE payload "bp" (of "len" bytes) of GRE protocol
 * "gre_proto", 0x88be or 0x22eb, with GRE flags "gre_flags".
 */
void
erspan_print(netdissect_options *ndo, uint16_t gre_proto, uint16_t gre_flags,
    const u_char *bp, u_int len)
{
	ndo->ndo_protocol = "erspan";
	nd_print_protocol(ndo);
	if (gre_proto == ERSPAN_PROTO_III)
		erspan_iii_print(ndo, bp, len);
	else if (gre_flags & ERSPAN_GRE_S)
		erspan_ii_print(ndo, bp, len);
	else {
		ND_PRINT(" type1");
		erspan_frame_print(ndo, bp, len);
	}
}
