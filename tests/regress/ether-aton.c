/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * CVE-2025-11961: pcap_ether_aton() is public, and libpcap 1.10.5
 * assumed its argument well formed: a string of another form made it
 * read past the string's end and write past its 6-byte result.  Every
 * form the manual lists must parse to the right address, and anything
 * else must give NULL, with no read or write out of bounds (run under
 * AddressSanitizer, or valgrind).  "ether host" filters, which reach
 * it through the lexer, compile for every form and fail cleanly for a
 * malformed address.
 *
 * usage: ether-aton
 * Prints TAP-like lines; exits non-zero on failure.
 */

#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <pcap/namedb.h>

#include "../lib-tap.h"

static const u_char want[6] = { 0x00, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f };

static const char *const good[] = {
	"00:1b:2c:3d:4e:5f", "0:1b:2c:3d:4e:5f", "00-1B-2C-3D-4E-5F",
	"00.1b.2c.3d.4e.5f", "001b.2c3d.4e5f", "001B2C3D4E5F",
};

/*
 * Too short, too long, mixed separators, a group of three digits, a
 * non-digit, the forms with a byte missing or one too many; each is
 * copied to a buffer of its own exact size, so that a read past its end
 * is out of bounds.
 */
static const char *const bad[] = {
	"", "0", ":", "00:1b:2c:3d:4e", "00:1b:2c:3d:4e:5f:60",
	"00:1b-2c:3d:4e:5f", "001:b:2c:3d:4e:5f", "00:1b:2c:3d:4e:5g",
	"001b.2c3d.4e5", "001b.2c3d.4e5f0", "001b2c3d4e5", "001b2c3d4e5f0",
	"001b:2c3d:4e5f", "00:1b:2c:3d:4e:5f:", "::::::::::::::::::::",
	"0:1:2:3:4:5:6:7:8:9:a:b:c:d:e:f", "x",
};

int
main(void)
{
	char expr[64];
	struct bpf_program prog;
	u_char *e;
	pcap_t *p;
	size_t i;
	char *s;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		e = pcap_ether_aton(good[i]);
		check(e != NULL && memcmp(e, want, sizeof(want)) == 0,
		    "pcap_ether_aton(\"%s\") is 00:1b:2c:3d:4e:5f", good[i]);
		free(e);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = malloc(strlen(bad[i]) + 1);
		if (s == NULL)
			return (2);
		memcpy(s, bad[i], strlen(bad[i]) + 1);
		e = pcap_ether_aton(s);
		check(e == NULL, "pcap_ether_aton(\"%s\") is NULL", bad[i]);
		free(e);
		free(s);
	}

	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL)
		return (2);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(expr, sizeof(expr), "ether host %s", good[i]);
		check(pcap_compile(p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) == 0,
		    "\"%s\" compiles", expr);
		pcap_freecode(&prog);
	}
	check(pcap_compile(p, &prog, "ether host 00:1b:2c:3d:4e", 1,
	    PCAP_NETMASK_UNKNOWN) == -1 && pcap_geterr(p)[0] != '\0',
	    "\"ether host 00:1b:2c:3d:4e\" is refused: %s", pcap_geterr(p));
	pcap_close(p);
	return (tap_end());
}
