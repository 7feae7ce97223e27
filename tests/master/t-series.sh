#!/bin/sh
#
# The master series (patches/master/) on the pinned snapshots of
# libpcap's and tcpdump's development branches, as their maintainers
# would take it (build-aux/sluice-upstream-check): every commit applies
# with git am and builds with autotools, the last one with CMake too,
# and there each project's own suite fails nothing and passes what it
# passes on the pristine snapshot plus our new rows: libpcap's
# testprogs/TESTrun 14,625 + LIBPCAP_ROWS, tcpdump's TESTrun 794 +
# TCPDUMP_ROWS.  libpcap/02-read-compressed adds 20 tests of compressed
# savefiles to TESTrun (16 apply tests, 4 of them on the plain file, and
# 4 reject tests), of which 19 run where every codec is built: the
# refusal of a file whose codec is not built skips there.  In the builds
# without codecs, the 4 on the plain file and that refusal pass, and the
# 15 of the codecs skip.  tcpdump/03-read-compressed-tests adds 4
# TESTrun rows (the plain file and its three compressed forms), which
# all pass against the libpcap of the whole series.
# The build is left in $SLUICE_BUILDDIR/upstream-master
# for the topics' own tests, t-topic-*.sh.  Skips where the snapshots
# are absent (a clone without ../shared/upstream/).
#
# Run only when named (make check-upstream), as a stage of check-all.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd git autoreconf cmake

LIBPCAP_ROWS=19
TCPDUMP_ROWS=4
work=$SLUICE_BUILDDIR/upstream-master
sh "$SLUICE_SRCDIR/build-aux/sluice-upstream-check" "$SLUICE_SRCDIR" "$work" \
    >"$TMPDIR/out" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	echo "1..0 # SKIP $(tail -1 "$TMPDIR/out")"
	exit 77
fi
sed 's/^/#   /' "$TMPDIR/out"
t_expect_eq "the check ends with no failure" "0 sluice-upstream-check: 0 failed" \
    "$rc $(tail -n 1 "$TMPDIR/out")"
for comp in libpcap tcpdump; do
	total=$(grep -c . "$work/export/$comp/series")
	built=$(grep -c "^ok   $comp [0-9]*/$total .*: builds\$" "$TMPDIR/out")
	t_expect_eq "every one of $comp's $total commits applies and builds" "$total" "$built"
	t_check "$comp's last commit builds with CMake" \
	    grep -q "^ok   $comp: the last commit builds with CMake\$" "$TMPDIR/out"
done
for how in autotools cmake; do
	t_check "libpcap without codecs ($how): compressed files are refused by name" \
	    grep -q "^ok   libpcap: without codecs ($how), compressed files are refused by name\$" "$TMPDIR/out"
	t_expect_eq "... 5 tests pass, 15 skip, none fails" \
	    "without codecs ($how): 5 passed, 15 skipped, 0 failed" \
	    "$(grep "^without codecs ($how): " "$TMPDIR/out")"
done
t_expect_eq "libpcap's make check: master's 14,625 and our rows pass, none fails" \
    "suite libpcap: $((14625 + LIBPCAP_ROWS)) passed, 0 failed" \
    "$(grep '^suite libpcap:' "$TMPDIR/out")"
t_expect_eq "tcpdump's make check: master's 794 and our rows pass, none fails" \
    "suite tcpdump: $((794 + TCPDUMP_ROWS)) passed, 0 failed" \
    "$(grep '^suite tcpdump:' "$TMPDIR/out")"
t_done
