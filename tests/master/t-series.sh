#!/bin/sh
#
# The master series (patches/master/) on the pinned snapshots of
# libpcap's and tcpdump's development branches, as their maintainers
# would take it (build-aux/sluice-upstream-check): every commit applies
# with git am and builds with autotools, with the project's developer
# warnings as errors as its CI builds a pull request, the last one with
# CMake too,
# "make releasetar" there ships every file the series adds, and each
# project's own suite fails nothing and passes what it
# passes on the pristine snapshot plus our new rows: libpcap's
# testprogs/TESTrun 14,625 + LIBPCAP_ROWS, tcpdump's TESTrun 794 +
# TCPDUMP_ROWS.  libpcap/01-linuxext-offsets adds 2: the code of "vxlan
# and inbound" with Linux BPF extensions, optimized and not.
# libpcap/04-savefile-options adds 4: testprogs/compresstest writes a
# savefile in "none", gzip, LZ4 and zstd and reads it back record for
# record; libpcap/05-writer-thread 4 more, the same from a writer thread.
# libpcap/03-read-compressed adds 30 tests of compressed
# savefiles to TESTrun (26 apply tests: 16 on the six-packet pcap, 4 of
# them on the plain file, 8 on the same packets as pcapng, 2 of them on
# the plain file, and 2 on a file too large to be held; and 4 reject
# tests), of which 29 run where every codec is built: the
# refusal of a file whose codec is not built skips there; the builds
# without codec libraries are below.  libpcap/07-erspan-filter adds 25:
# the generated code of "erspan" and "erspan 7", optimized and not (4),
# 8 filters on tests/filter/erspan.pcap, optimized and not (16), and 5
# reject tests; libpcap/08-erspan-mode 4: the code of an empty
# expression and of "tcp port 80" for DLT_ERSPAN, optimized and not.
# tcpdump/03-read-compressed-tests adds 4
# TESTrun rows (the plain file and its three compressed forms) and
# tcpdump/05-erspan 6 (its ERSPAN captures read with --erspan), which
# all pass against the libpcap of the whole series.
# The build is left in $SLUICE_BUILDDIR/upstream-master
# for the topics' own tests, t-topic-*.sh.  Skips where the snapshots
# are absent (a clone without ../shared/upstream/).
#
# Run only when named (make check-upstream), as a stage of check-all.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd git autoreconf cmake

LIBPCAP_ROWS=68
TCPDUMP_ROWS=10
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
	t_check "$comp's commits build with its developer warnings as errors" \
	    sh -c "grep -q -- '^CCOPT = .*-Wmissing-prototypes' '$work/$comp/obj-devel/Makefile' &&
	        grep -qx 'sluice-upstream-check: built in obj-devel with the developer warnings and make CFLAGS=-Werror' '$work/$comp.log'"
	t_check "$comp's last commit builds with CMake" \
	    grep -q "^ok   $comp: the last commit builds with CMake\$" "$TMPDIR/out"
	t_check "$comp: make releasetar ships every file the series adds" \
	    grep -q "^ok   $comp: make releasetar ships the [0-9]* files the series adds\$" "$TMPDIR/out"
done
# Without each codec library, and without any: the 4 tests of that
# codec's files (for zlib the 4 tests of the gzip pcap, the 2 of the
# gzip pcapng and 2 reject tests; for libzstd the 4, 2 and 2 of the
# zstd pcap, pcapng and large file and the cut zstd file) skip with
# those of the other missing ones, and the refusal of a zstd file by
# name runs where libzstd is missing; compresstest's 2 tests of that
# codec (written directly and from a writer thread) skip too, and those
# of "none" and the codecs present pass.
for how in autotools cmake; do
	for want in "zlib: 27 passed, 11 skipped" "lz4: 29 passed, 9 skipped" \
	    "zstd: 27 passed, 11 skipped" "codecs: 9 passed, 29 skipped"; do
		t_expect_eq "libpcap without ${want%%:*} ($how): TESTrun's compressed-savefile tests" \
		    "without ${want%%:*} ($how): ${want#*: }, 0 failed" \
		    "$(grep "^without ${want%%:*} ($how): " "$TMPDIR/out")"
	done
done
t_expect_eq "libpcap's make check: master's 14,625 and our rows pass, none fails" \
    "suite libpcap: $((14625 + LIBPCAP_ROWS)) passed, 0 failed" \
    "$(grep '^suite libpcap:' "$TMPDIR/out")"
t_expect_eq "tcpdump's make check: master's 794 and our rows pass, none fails" \
    "suite tcpdump: $((794 + TCPDUMP_ROWS)) passed, 0 failed" \
    "$(grep '^suite tcpdump:' "$TMPDIR/out")"
t_done
