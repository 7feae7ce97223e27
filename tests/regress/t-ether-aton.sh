#!/bin/sh
# CVE-2025-11961, backported from libpcap 1.10.6: pcap_ether_aton() on
# strings that are no MAC-48 address.  tests/regress/ether-aton.c checks
# the results; the sanitizer build catches any read or write out of
# bounds, and the plain build runs it under valgrind too, where there
# is one.
. "$SLUICE_SRCDIR/tests/lib.sh"

t_program ether-aton "$SLUICE_SRCDIR/tests/regress/ether-aton.c"
prog=$TMPDIR/ether-aton
[ -x "$prog" ] || t_done
case "$CFLAGS" in
*-fsanitize=*)
	t_skip "valgrind" "this build is under the sanitizers already" ;;
*)
	if command -v valgrind >/dev/null 2>&1; then
		t_check "valgrind finds no invalid read or write" \
		    valgrind -q --error-exitcode=9 --leak-check=no \
		    "$prog" >/dev/null 2>"$TMPDIR/vg"
	else
		t_skip "valgrind" "valgrind is not installed"
	fi ;;
esac
t_done
