#!/bin/sh
#
# CMake builds have every feature and option the autotools builds have
# (upstream CI builds both, and CMake is the only way on Windows).  The
# patched libpcap and tcpdump trees are built with CMake, tcpdump against
# that libpcap, and compared with the autotools build of the same trees:
# the same exported symbols, the same answers to the dumper checks, our
# man pages installed, VERSION_EXTRA in both version strings, and
# compressed savefiles that round-trip with each codec.  WITH_ZSTD=no
# and WITH_LZ4=OFF leave zstd and LZ4 out, and tcpdump then refuses zstd
# with a message.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd cmake
case $CFLAGS in
*-fsanitize=*)
	# This checks the build system, which the sanitizers do not change;
	# the plain build runs it.
	echo "1..0 # SKIP the CMake build is checked in the plain build"
	exit 77 ;;
esac

lpsrc=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
tdsrc=$SLUICE_BUILDDIR/src/tcpdump-$SLUICE_TCPDUMP_VERSION
inst=$TMPDIR/inst
extra="(cmake check)"

# cmake_build NAME SRC ARGS...: configure and build SRC in $TMPDIR/NAME.
cmake_build() {
	_n=$1
	_s=$2
	shift 2
	mkdir -p "$TMPDIR/$_n"
	if ! (cd "$TMPDIR/$_n" && cmake "$@" "$_s" >cmake.log 2>&1); then
		t_fail "cmake configures $_n: $(tail -5 "$TMPDIR/$_n/cmake.log" | tr '\n' ' ')"
		return 1
	fi
	if ! make -C "$TMPDIR/$_n" -j2 >"$TMPDIR/$_n/make.log" 2>&1; then
		t_fail "$_n builds with CMake: $(grep -m3 -E 'error|Error' "$TMPDIR/$_n/make.log" | tr '\n' ' ')"
		return 1
	fi
	t_ok "$_n configures and builds with CMake"
}

# With LZO where this build has it (configure --with-lzo).
lzo=-DWITH_LZO=OFF
if grep -q '^#define HAVE_LIBLZO2 1' "$SLUICE_BUILDDIR/obj/libpcap/config.h"; then
	lzo=-DWITH_LZO=ON
fi
cmake_build libpcap "$lpsrc" -DCMAKE_INSTALL_PREFIX="$inst" \
    -DVERSION_EXTRA="$extra" "$lzo" || t_done
if ! make -C "$TMPDIR/libpcap" install >"$TMPDIR/libpcap/install.log" 2>&1; then
	t_fail "libpcap installs with CMake"
	t_done
fi
lib=$(ls "$inst"/lib*/libpcap.so.*.*.* | head -1)
libdir=$(dirname "$lib")

# The exported symbols: exactly those of the autotools build.
exports() {
	nm -D --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | LC_ALL=C sort
}
ours_lib=$(ls "$SLUICE_STAGE_LIBDIR"/libpcap.so.*.*.* | head -1)
exports "$lib" >"$TMPDIR/cmake.syms"
exports "$ours_lib" >"$TMPDIR/autotools.syms"
t_check "the CMake libpcap exports what the autotools one does" \
    diff "$TMPDIR/autotools.syms" "$TMPDIR/cmake.syms"
t_check "the CMake libpcap exports the dumper options API" \
    grep -qx pcap_dump_open_with_options "$TMPDIR/cmake.syms"
undefined=$(nm -D --undefined-only "$lib" | awk '{ print $2 }' | grep -E '^(pcap|sfc|pcapint)' | tr '\n' ' ')
t_expect_eq "no libpcap function is left undefined" "" "$undefined"

# CMake's checks of the dumper answer as configure's.
differ=
for m in HAVE_FOPENCOOKIE HAVE_PTHREADS HAVE_PTHREAD_ATTR_SETAFFINITY_NP \
    HAVE_PTHREAD_SETNAME_NP HAVE_ZLIB HAVE_LIBLZ4 HAVE_LIBZSTD HAVE_LIBLZO2; do
	a=$(grep -c "^#define $m 1" "$SLUICE_BUILDDIR/obj/libpcap/config.h")
	c=$(grep -c "^#define $m 1" "$TMPDIR/libpcap/config.h")
	[ "$a" = "$c" ] || differ="$differ $m (configure $a, CMake $c)"
done
t_expect_eq "CMake and configure agree on the dumper checks" "" "${differ:-}"

missing=
for page in "$SLUICE_SRCDIR"/libpcap/*.3pcap; do
	name=$(basename "$page")
	[ -e "$inst/share/man/man3/$name" ] || missing="$missing $name"
done
t_expect_eq "CMake installs every man page of ours" "" "$missing"

cmake_build tcpdump "$tdsrc" -DCMAKE_PREFIX_PATH="$inst" \
    -DVERSION_EXTRA="$extra" || t_done
td=$TMPDIR/tcpdump/tcpdump
t_check "tcpdump found the dumper options" \
    grep -q '^#define HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS 1' "$TMPDIR/tcpdump/config.h"
t_expect_eq "both version strings carry VERSION_EXTRA" \
    "tcpdump version $SLUICE_TCPDUMP_VERSION $extra|libpcap version $SLUICE_LIBPCAP_VERSION $extra (with TPACKET_V3)" \
    "$(LD_LIBRARY_PATH=$libdir "$td" --version 2>&1 | sed -n 1,2p | paste -sd'|')"

in=$TMPDIR/in.pcap
"$SLUICE_GEN" --type http --count 500 --out "$in" >/dev/null 2>&1
LD_LIBRARY_PATH=$libdir "$td" -r "$in" -w "$TMPDIR/plain.pcap" 2>/dev/null
for c in zstd lz4 gzip; do
	out=$TMPDIR/c.$c
	if ! LD_LIBRARY_PATH=$libdir "$td" -r "$in" -w "$out" --compress=$c 2>"$TMPDIR/err"; then
		t_fail "tcpdump --compress=$c (CMake): $(cat "$TMPDIR/err")"
		continue
	fi
	LD_LIBRARY_PATH=$libdir "$td" -r "$out" -w "$TMPDIR/back.pcap" 2>/dev/null
	t_check "--compress=$c round-trips byte for byte (CMake)" \
	    cmp "$TMPDIR/plain.pcap" "$TMPDIR/back.pcap"
done

# WITH_ZSTD=no: no zstd, and a clear refusal.  WITH_LZ4=OFF, a CMake
# boolean, turns LZ4 off as "no" does.
cmake_build libpcap-nozstd "$lpsrc" -DWITH_ZSTD=no -DWITH_LZ4=OFF || t_done
t_check "WITH_ZSTD=no leaves zstd out" \
    sh -c "! grep -q '^#define HAVE_LIBZSTD 1' '$TMPDIR/libpcap-nozstd/config.h' &&
        ! readelf -d '$TMPDIR/libpcap-nozstd/libpcap.so' | grep -q libzstd"
t_check "WITH_LZ4=OFF leaves LZ4 out" \
    sh -c "! grep -q '^#define HAVE_LIBLZ4 1' '$TMPDIR/libpcap-nozstd/config.h' &&
        ! readelf -d '$TMPDIR/libpcap-nozstd/libpcap.so' | grep -q liblz4"
LD_LIBRARY_PATH=$TMPDIR/libpcap-nozstd "$td" -r "$in" -w "$TMPDIR/nozstd" \
    --compress=zstd >/dev/null 2>"$TMPDIR/err"
rc=$?
t_expect_eq "tcpdump refuses zstd from that library, with status 1" 1 "$rc"
t_check "and says zstd is not supported" grep -q 'zstd.*not supported' "$TMPDIR/err"
t_done
