#!/bin/sh
#
# The threaded dumper through the public API (wdump-api.c): records
# pushed through a writer thread, pcap_dump() and split fwrite()s alike,
# read back byte-identical and in order for every codec; a full ring
# drops whole records and the counts add up; ENOSPC is sticky and every
# record is accounted for; bad ring sizes and CPUs are refused; dumpers
# closed by pcap_dump_close_async() are reported in order, complete;
# threads that open and close dumpers at once each read back their own.
#
# Run twice, and for lzo a third time (see the LZO variant below):
# linked against the staged libpcap as built (AddressSanitizer
# and UBSan in a sanitizer build), and under ThreadSanitizer, with
# our libpcap source files that the build compiled (the dumper, its
# writer thread, the codecs) compiled into the test with
# -fsanitize=thread in front of the build's static
# libpcap.a (which then supplies only the rest of libpcap), so that the
# handover between pcap_dump()'s thread and the writer thread is checked
# for data races, not just the ring on its own (tests/writer).

. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
obj=$SLUICE_BUILDDIR/obj/libpcap
API=$TMPDIR/wdump-api
TSAN=$TMPDIR/wdump-tsan

if ! build_c "$API" "$SLUICE_SRCDIR/tests/writer-live/wdump-api.c" \
    -lpthread >"$TMPDIR/build.log" 2>&1; then
	t_fail "build wdump-api"
	sed 's/^/#   /' "$TMPDIR/build.log" | head -20
	t_done
fi

# The codecs this libpcap has, from its own error messages.
codecs=none
for c in zstd lz4 gzip lzo; do
	if "$API" roundtrip "$TMPDIR/probe" "$c" 1048576 1 >/dev/null 2>&1; then
		codecs="$codecs $c"
	fi
done
t_ok "codecs built: $codecs"

# The sources and libraries of the TSan variant: our libpcap source files
# (libpcap/ of this tree) that the build compiled, whatever their names,
# and the libraries libpcap was linked with.
tsan_srcs=
for f in "$SLUICE_SRCDIR"/libpcap/*.c; do
	f=${f##*/}
	if [ -f "$obj/${f%.c}.o" ]; then
		tsan_srcs="$tsan_srcs $src/$f"
	fi
done
tsan_libs=$(sed -n 's/^LIBS *= *//p' "$obj/Makefile")
# shellcheck disable=SC2086
if ! [ -f "$obj/libpcap.a" ]; then
	t_skip "ThreadSanitizer variant" "no $obj/libpcap.a"
	TSAN=
elif case $CFLAGS in *-fsanitize=address*) true ;; *) false ;; esac; then
	# The rest of libpcap.a is AddressSanitizer-instrumented here, and
	# the two sanitizers cannot share a program; the ordinary build
	# (make check's default) runs this variant.
	t_skip "ThreadSanitizer variant" "AddressSanitizer build"
	TSAN=
elif ! $CC -g -O1 -fsanitize=thread -Wno-tsan -DHAVE_CONFIG_H -I"$obj" \
    -I"$src" -o "$TSAN" "$SLUICE_SRCDIR/tests/writer-live/wdump-api.c" \
    $tsan_srcs "$obj/libpcap.a" $tsan_libs -lpthread \
    >"$TMPDIR/build-tsan.log" 2>&1; then
	t_fail "build the ThreadSanitizer variant"
	sed 's/^/#   /' "$TMPDIR/build-tsan.log" | head -20
	TSAN=
fi

# The LZO variant.  A default build leaves LZO out (liblzo2 is GPL), so
# that lzop savefiles stay covered, the same sources with the lzop
# container (sf-compress-lzo.c, HAVE_LIBLZO2) are compiled in front of
# the build's libpcap.a, as for ThreadSanitizer but with the build's
# flags, and run the checks for lzo.  A libpcap built --with-lzo has it
# in the plain variant already.
LZO=$TMPDIR/wdump-lzo
case " $codecs " in
*" lzo "*)
	LZO= ;;
*)
	if ! [ -f "$obj/libpcap.a" ]; then
		t_skip "LZO variant" "no $obj/libpcap.a"
		LZO=
	elif ! printf '#include <lzo/lzo1x.h>\n' |
	    $CC -E - >/dev/null 2>&1; then
		t_skip "LZO variant" "liblzo2's headers (liblzo2-dev) are not installed"
		LZO=
	# shellcheck disable=SC2086
	elif ! $CC $CFLAGS -DHAVE_CONFIG_H -DHAVE_LIBLZO2 -I"$obj" -I"$src" \
	    -o "$LZO" "$SLUICE_SRCDIR/tests/writer-live/wdump-api.c" \
	    $tsan_srcs "$src/sf-compress-lzo.c" "$obj/libpcap.a" $tsan_libs \
	    -llzo2 -lpthread >"$TMPDIR/build-lzo.log" 2>&1; then
		t_fail "build the LZO variant"
		sed 's/^/#   /' "$TMPDIR/build-lzo.log" | head -20
		LZO=
	fi ;;
esac

# run VARIANT BINARY DESC ARGS...: one check; a sanitizer report fails it.
run() {
	_v=$1
	_b=$2
	_d=$3
	shift 3
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$_b" "$@" \
	    >"$TMPDIR/out" 2>&1
	_rc=$?
	if [ $_rc -eq 0 ] && ! grep -q 'Sanitizer' "$TMPDIR/out"; then
		t_ok "$_v: $_d"
	else
		t_fail "$_v: $_d (exit $_rc)"
		sed 's/^/#   /' "$TMPDIR/out" | head -30
	fi
}

for v in plain tsan lzo; do
	b=$API
	vcodecs=$codecs
	case $v in
	tsan)
		[ -n "$TSAN" ] || continue
		b=$TSAN ;;
	lzo)
		[ -n "$LZO" ] || continue
		b=$LZO
		vcodecs=lzo ;;
	esac
	[ $v = lzo ] ||
	    run $v "$b" "bad ring sizes and CPUs are refused" errors
	for c in $vcodecs; do
		run $v "$b" "$c, 64 KiB ring: 3000 records read back identical" \
		    roundtrip "$TMPDIR/rt.$c" "$c" 65536 3000
		run $v "$b" "$c, 4 MiB ring: 3000 records read back identical" \
		    roundtrip "$TMPDIR/rt.$c" "$c" 4194304 3000
		run $v "$b" "$c, /dev/full: ENOSPC, written + dropped + lost = records" \
		    full "$c"
		run $v "$b" "$c, ring full: whole records dropped, counts add up" \
		    drops "$TMPDIR/dr.$c" "$c" 3000
		run $v "$b" "$c, 8 files closed by pcap_dump_close_async(): in order, complete" \
		    async "$TMPDIR/as.$c" "$c" 8 2000
		run $v "$b" "$c, 4 threads opening and closing 6 pairs of dumpers each: every file complete" \
		    threads "$TMPDIR/th.$c" "$c" 4 6
	done
done
t_done
