#!/bin/sh
#
# A C library with funopen() instead of fopencookie() (macOS and the
# BSDs but FreeBSD) gets the reader and the dumper of compressed
# savefiles all the same.  On Linux libbsd's funopen() stands in for
# theirs: its overlay makes <stdio.h> declare it, as theirs does.
# configure finds no fopencookie() (forced through its cache variable)
# and finds funopen(); both streams are opened with it, and the dumper
# API (tests/compress/sfc-api.c) copies a savefile in each container,
# with and without a writer thread, with every record counted and
# ftell() giving the bytes on disk, which the codec's tool
# decompresses and this libpcap reads back as the plain savefile.

. "$SLUICE_SRCDIR/tests/lib.sh"

if ! pkg-config --exists libbsd-overlay 2>/dev/null; then
	echo "1..0 # SKIP libbsd's overlay (libbsd-dev) is not installed"
	exit 77
fi
bsd_cflags=$(pkg-config --cflags libbsd-overlay)
bsd_libs=$(pkg-config --libs libbsd-overlay)

. "$SLUICE_SRCDIR/tests/build/lib-stubs.sh"
stub_build ac_cv_func_fopencookie=no "CFLAGS=-O1 $bsd_cflags" "LIBS=$bsd_libs"
t_check "configure finds funopen() where fopencookie() is missing" \
    sh -c "grep -q 'checking for fopencookie... (cached) no' '$obj/configure.log' &&
        grep -q 'checking for funopen... yes' '$obj/configure.log'"
t_check "... and takes its seek function's offset type" \
    grep -q '^#define SFC_COOKIE_OFF_T off_t$' "$obj/config.h"
reader_syms
t_check "the reader opens its decompressing stream with funopen()" \
    sh -c "echo '$rsyms' | grep -q ' U funopen$' &&
        echo '$rsyms' | grep -q ' T pcapint_sfc_stream_read$' &&
        ! echo '$rsyms' | grep -q ' U fopencookie$'"
t_check "the dumper opens its compressing stream with funopen()" \
    sh -c "echo '$wsyms' | grep -q ' U funopen$' &&
        ! echo '$wsyms' | grep -q ' U fopencookie$'"

api=$TMPDIR/sfc-api
# shellcheck disable=SC2086
if ! $CC -O1 $bsd_cflags -I"$src" -o "$api" \
    "$SLUICE_SRCDIR/tests/compress/sfc-api.c" "$obj/libpcap.a" $libs \
    -lpthread >"$TMPDIR/cc.log" 2>&1; then
	t_fail "sfc-api.c links against it: $(head -5 "$TMPDIR/cc.log")"
	t_done
fi

in=$SLUICE_BUILDDIR/src/tcpdump-$SLUICE_TCPDUMP_VERSION/tests/afs.pcap
plain=$TMPDIR/plain.pcap
"$TCPDUMP" -r "$in" -w "$plain" 2>/dev/null
records=$("$api" read "$plain" | sed -n 1p)
t_check "the plain capture has packets" test "${records:-0}" -gt 0
for c in gzip lz4 zstd; do
	for ring in 0 1048576; do
		out=$TMPDIR/copy-$ring.$c
		case $ring in
		0)	how="$c, no writer thread" ;;
		*)	how="$c, a writer thread" ;;
		esac
		t_check "$how: the copy counts every record and tells its size" \
		    "$api" write "$in" "$out" $c 4096 $ring
		case $c in
		gzip)	gzip -dc <"$out" >"$TMPDIR/back" 2>/dev/null ;;
		lz4)	lz4 -dc <"$out" >"$TMPDIR/back" 2>/dev/null ;;
		zstd)	zstd -dcq <"$out" >"$TMPDIR/back" 2>/dev/null ;;
		esac
		t_check "$how: the tool decompresses it to the plain savefile" \
		    cmp "$TMPDIR/back" "$plain"
		t_expect_eq "$how: this libpcap reads every record back" \
		    "$records" "$("$api" read "$out" | sed -n 1p)"
		rm -f "$TMPDIR/back" "$out"
	done
done
zstd -qc <"$plain" >"$TMPDIR/tool.zst"
t_expect_eq "a file zstd(1) wrote is read through funopen()'s stream" \
    "$records" "$("$api" read "$TMPDIR/tool.zst" | sed -n 1p)"
t_done
