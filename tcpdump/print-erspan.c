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

#define ERSPAN_II_HDRLEN	8
#define ERSPAN_III_HDRLEN	12
#define ERSPAN_III_SUBHDRLEN	8

static const struct tok erspan_encap_values[] = {
	{ 0, "untagged" },
	{ 1, "ISL" },
	{ 2, "802.1Q" },
	{ 3, "tag preserved" },
	{ 0, NULL }
};

static const struct tok erspan_bso_values[] = {
	{ 0, "good" },
	{ 1, "short" },
	{ 2, "oversized" },
	{ 3, "bad" },
	{ 0, NULL }
};

static const struct tok erspan_gra_values[] = {
	{ 0, "100us" },
	{ 1, "100ns" },
	{ 2, "IEEE 1588" },
	{ 3, "custom" },
	{ 0, NULL }
};

/*
 * The first word, common to types II and III.  Returns 0, after saying
 * so, if the Ver field is not "ver"; prints only the session ID unless
 * verbose.
 */
static int
erspan_word0_print(netdissect_options *ndo, const u_char *bp, u_int ver,
    const struct tok *en_names, const char *en_label)
{
	uint32_t w0;

	w0 = GET_BE_U_4(bp);
	if ((w0 >> 28) != ver) {
		ND_PRINT(", version %u", w0 >> 28);
		nd_print_invalid(ndo);
		return (0);
	}
	ND_PRINT(", session %u", w0 & 0x3ff);
	if (ndo->ndo_vflag) {
		ND_PRINT(", vlan %u, cos %u, %s %s",
		    (w0 >> 16) & 0xfff, (w0 >> 13) & 0x7, en_label,
		    tok2str(en_names, "?", (w0 >> 11) & 0x3));
		if (w0 & 0x400)
			ND_PRINT(", truncated");
	}
	return (1);
}

static void
erspan_payload_print(netdissect_options *ndo, const u_char *bp, u_int len)
{
	ND_PRINT(", length %u: ", len);
	ether_print(ndo, bp, len, ND_BYTES_AVAILABLE_AFTER(bp), NULL, NULL);
}

static void
erspan_ii_print(netdissect_options *ndo, const u_char *bp, u_int len)
{
	ND_PRINT("ERSPAN type II");
	if (len < ERSPAN_II_HDRLEN) {
		ND_PRINT(", length %u", len);
		nd_print_invalid(ndo);
		return;
	}
	if (!erspan_word0_print(ndo, bp, ERSPAN_II_VER, erspan_encap_values,
	    "encap"))
		return;
	if (ndo->ndo_vflag)
		ND_PRINT(", index %u", GET_BE_U_4(bp + 4) & 0xfffff);
	else
		ND_TCHECK_LEN(bp, ERSPAN_II_HDRLEN);
	erspan_payload_print(ndo, bp + ERSPAN_II_HDRLEN,
	    len - ERSPAN_II_HDRLEN);
}

static void
erspan_iii_print(netdissect_options *ndo, const u_char *bp, u_int len)
{
	u_int hdrlen, ft;
	uint16_t w2;
	uint8_t platf_id;

	ND_PRINT("ERSPAN type III");
	if (len < ERSPAN_III_HDRLEN) {
		ND_PRINT(", length %u", len);
		nd_print_invalid(ndo);
		return;
	}
	if (!erspan_word0_print(ndo, bp, ERSPAN_III_VER, erspan_bso_values,
	    "bso"))
		return;
	w2 = GET_BE_U_2(bp + 10);
	ft = (w2 >> 10) & 0x1f;
	hdrlen = ERSPAN_III_HDRLEN;
	if (ndo->ndo_vflag) {
		ND_PRINT(", timestamp %u (%s), sgt %u, hw-id %u, %s",
		    GET_BE_U_4(bp + 4),
		    tok2str(erspan_gra_values, "?", (w2 >> 1) & 0x3),
		    GET_BE_U_2(bp + 8), (w2 >> 4) & 0x3f,
		    (w2 & 0x0008) ? "egress" : "ingress");
	}
	if (w2 & 0x0001) {
		if (len < ERSPAN_III_HDRLEN + ERSPAN_III_SUBHDRLEN) {
			ND_PRINT(", length %u", len);
			nd_print_invalid(ndo);
			return;
		}
		platf_id = GET_U_1(bp + 12) >> 2;
		if (ndo->ndo_vflag)
			ND_PRINT(", platform %u info 0x%07x%08x", platf_id,
			    GET_BE_U_4(bp + 12) & 0x03ffffff,
			    GET_BE_U_4(bp + 16));
		else
			ND_TCHECK_LEN(bp, ERSPAN_III_HDRLEN +
			    ERSPAN_III_SUBHDRLEN);
		hdrlen += ERSPAN_III_SUBHDRLEN;
	} else
		ND_TCHECK_LEN(bp, ERSPAN_III_HDRLEN);
	if (ft != 0) {
		/* Only frame type 0 is an Ethernet frame. */
		ND_PRINT(", frame type %u, length %u", ft, len - hdrlen);
		return;
	}
	erspan_payload_print(ndo, bp + hdrlen, len - hdrlen);
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
	if (gre_proto == ERSPAN_PROTO_III)
		erspan_iii_print(ndo, bp, len);
	else if (gre_flags & ERSPAN_GRE_S)
		erspan_ii_print(ndo, bp, len);
	else {
		ND_PRINT("ERSPAN type I");
		erspan_payload_print(ndo, bp, len);
	}
}
