#!/bin/sh
# pcap_ether_hostton()'s result is freed when a filter fails to compile
# (libpcap 1.10.6's fix, backported).  The host name must resolve
# through /etc/ethers, which the test gives a private copy of: an
# overlay on /etc in a mount namespace of its own, so the system's
# /etc is never written.  The plain build runs the program under
# valgrind, the sanitizer build under LeakSanitizer.
. "$SLUICE_SRCDIR/tests/lib.sh"
need_root
need_cmd unshare mount

prog=$TMPDIR/ether-hostton
if ! build_c "$prog" "$SLUICE_SRCDIR/tests/regress/ether-hostton.c"; then
	t_fail "build ether-hostton"
	t_done
fi
case "$CFLAGS" in
*-fsanitize=*)
	run="" ;;
*)
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "1..0 # SKIP valgrind is not installed (the leak check needs it or the sanitizer build)"
		exit 77
	fi
	run="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9" ;;
esac
mkdir "$TMPDIR/etc"
printf '00:1b:2c:3d:4e:5f sluice-test-host\n' >"$TMPDIR/etc/ethers"
# shellcheck disable=SC2086 # $run is a command and its options
with_private_etc "$TMPDIR/etc" $run "$prog" sluice-test-host >"$TMPDIR/out" 2>&1
rc=$?
t_relay "$TMPDIR/out"
t_check "no leak and no error (exit $rc)" [ "$rc" = 0 ]
grep -B2 -A12 "definitely lost\|LeakSanitizer" "$TMPDIR/out" | head -30 | sed 's/^/#   /'
t_check "the system's /etc is left as it was" sh -c \
    "! grep -qs sluice-test-host /etc/ethers"
t_done
