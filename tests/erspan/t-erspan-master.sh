#!/bin/sh
#
# Our ERSPAN printer prints what tcpdump's development branch prints: on
# each of master's 10 ERSPAN tests (tests/TESTLIST, "-v"), our tcpdump's
# output equals master's expected output, byte for byte, run as master's
# TESTrun runs it (TZ=GMT0, -# -n -tttt).  The pcaps and outputs come
# from the pinned snapshot of tcpdump master in ../shared/upstream/; a
# clone without it skips.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd tar xz

snapshot=$SLUICE_SRCDIR/../shared/upstream/tcpdump-master-20260429-39b50f76672b.tar.xz
pin=2ed803c95d10c050b09a5f0631fe0bd9d43b106354c46ff784703143851f5520
if [ ! -f "$snapshot" ]; then
	echo "1..0 # SKIP the tcpdump master snapshot is absent ($snapshot)"
	exit 77
fi
t_expect_eq "the snapshot is the pinned one" "$pin" \
    "$(sha256sum "$snapshot" | cut -d' ' -f1)"

tar -xJf "$snapshot" -C "$TMPDIR" --wildcards '*/tests/TESTLIST' '*/tests/erspan-*'
tests=$(ls -d "$TMPDIR"/tcpdump-master-*/tests)
rows=$(grep '^erspan-' "$tests/TESTLIST")
t_expect_eq "master has 10 ERSPAN tests" 10 "$(echo "$rows" | wc -l)"
while read -r name pcap out args; do
	TZ=GMT0 "$TCPDUMP" -# -n -tttt -r "$tests/$pcap" $args \
	    >"$TMPDIR/$name.out" 2>/dev/null
	if cmp -s "$tests/$out" "$TMPDIR/$name.out"; then
		t_ok "$name: our output is master's"
	else
		t_fail "$name: our output differs from master's"
		diff "$tests/$out" "$TMPDIR/$name.out" | head -6 | sed 's/^/#   /'
	fi
done <<ROWS
$rows
ROWS
t_done
