#!/bin/sh
#
# Every prefix of the upstream export builds (build-aux/sluice-export-check):
# a maintainer who bisects through the series, or applies only its first
# topics, gets a libpcap and a tcpdump that compile and link at each
# commit.  SLUICE_EXPORT_PREFIXES ("make check-export EXPORT_PREFIXES=")
# is "all" (the default: 21 + 11 builds, about 9 minutes on 2 CPUs with
# ccache, 15 without) or "topics".  A commit that needs a file a later commit adds is caught:
# the check fails on it and names it.
#
# Run only when named (make check-export), as a stage of make check-all:
# it builds both trees 30 times over and has nothing to do with the
# sanitizers.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd git
need_cmd autoreconf

prefixes=${SLUICE_EXPORT_PREFIXES:-all}
# A copy for the sabotaged run below; the tarballs for both runs.
repo=$TMPDIR/repo
patch_queue_copy "$repo"
check=build-aux/sluice-export-check

# topic_ends COMP: the numbers of the last commits of COMP's topics.
topic_ends() {
	awk '/^topic / && n { print n } /^[0-9][0-9][0-9][0-9]/ { n++ } END { print n }' \
	    "$SLUICE_SRCDIR/patches/$1/topics" | tr '\n' ' '
}

sh "$SLUICE_SRCDIR/$check" "$SLUICE_SRCDIR" "$TMPDIR/check" "$prefixes" >"$TMPDIR/out" 2>&1
rc=$?
sed 's/^/#   /' "$TMPDIR/out"
t_expect_eq "the check ends with no failure" "0 sluice-export-check: 0 failed" \
    "$rc $(tail -n 1 "$TMPDIR/out")"
for comp in libpcap tcpdump; do
	total=$(grep -c . "$TMPDIR/check/export/$comp/series")
	if [ "$prefixes" = all ]; then
		want=$(seq 1 "$total" | tr '\n' ' ')
	else
		want=$(topic_ends "$comp")
	fi
	t_expect_eq "$comp: the prefixes built ($prefixes)" "$want" \
	    "$(sed -n "s|^ok   $comp \([0-9]*\)/$total .*: builds$|\1|p" "$TMPDIR/out" | tr '\n' ' ')"
done
for opt in --compress --writer-cpu --writer-ring --erspan; do
	t_check "tcpdump of the whole export offers $opt" \
	    grep -qx "ok   tcpdump of the whole export offers $opt" "$TMPDIR/out"
done

# A commit that compiles a file only a later commit adds does not build,
# and the check says which one.
sed -i -e 's/^0002 pcap-erspan.c pcap-erspan.h$/0002/' \
    -e 's/^0003$/0003 pcap-erspan.c pcap-erspan.h/' "$repo/patches/libpcap/topics"
sh "$repo/$check" "$repo" "$TMPDIR/bad" 2 libpcap >"$TMPDIR/bad.out" 2>&1
rc=$?
t_expect_eq "a commit without the file it compiles fails the check" \
    "1 FAIL libpcap 2/$(grep -c . "$TMPDIR/check/export/libpcap/series") 02-erspan/0001-build-Compile-the-ERSPAN-decapsulator.patch: does not build" \
    "$rc $(grep '^FAIL' "$TMPDIR/bad.out")"
t_check "and the log says why" grep -q "pcap-erspan.c" "$TMPDIR/bad.out"
t_done
