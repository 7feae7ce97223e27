#!/bin/sh
#
# Pull requests libpcap/04-savefile-options, 05-writer-thread and
# 06-adaptive-level of the master series: the dumper API from a C
# program (tests/compress/sfc-api.c) built against the master series'
# libpcap.  Its refusals and statistics; a sticky
# ENOSPC that counts every lost record; incompressible records stored;
# and a capture copied into each container, with and without a writer
# thread, that the codec's own tool and the master series' tcpdump read
# back byte for byte as the plain savefile.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd gzip lz4 zstd cmp

. "$SLUICE_SRCDIR/tests/master/master-build.sh"
PCAPS=$SLUICE_BUILDDIR/src/tcpdump-4.99.6/tests
if [ ! -f "$PCAPS/afs.pcap" ]; then
	echo "1..0 # SKIP tcpdump's test captures not found under $PCAPS"
	exit 77
fi

api=$TMPDIR/sfc-api
inc=$SLUICE_BUILDDIR/upstream-master/libpcap-installed/include
# shellcheck disable=SC2086
if ! $CC $CFLAGS -I"$inc" -o "$api" "$SLUICE_SRCDIR/tests/compress/sfc-api.c" \
    -L"$MASTER_LIB" -lpcap >"$TMPDIR/cc.log" 2>&1; then
	t_fail "sfc-api.c builds against the master series' libpcap"
	sed 's/^/#   /' "$TMPDIR/cc.log" | head -20
	t_done
fi

# mapi ARGS: sfc-api on the master series' libpcap.
mapi() {
	LD_LIBRARY_PATH=$MASTER_LIB "$api" "$@"
}

# decompress CODEC FILE: the tool's idea of FILE's contents.
decompress() {
	case $1 in
	gzip)	gzip -dc <"$2" ;;
	lz4)	lz4 -dc <"$2" ;;
	zstd)	zstd -dcq <"$2" ;;
	none)	cat "$2" ;;
	esac
}

t_check "invalid codecs, levels and block sizes are refused clearly" \
    mapi errors

in=$PCAPS/afs.pcap
plain=$TMPDIR/plain.pcap
LD_LIBRARY_PATH=$MASTER_LIB "$MASTER_TCPDUMP" -r "$in" -w "$plain" 2>/dev/null
records=$(mapi read "$plain" | sed -n 1p)
t_check "the plain capture has packets" test "${records:-0}" -gt 0

for c in gzip lz4 zstd none; do
	if [ -w /dev/full ]; then
		t_check "$c to /dev/full: sticky ENOSPC, every record counted as lost" \
		    mapi full $c
	else
		t_skip "$c to /dev/full" "no /dev/full"
	fi
	t_check "$c, incompressible records: stored, overhead bounded, codec skipped" \
	    mapi random "$TMPDIR/r.$c" $c 65536 1000
	# 4 KiB blocks, so that the copy spans many of them.
	for ring in 0 1048576; do
		out=$TMPDIR/copy-$ring.$c
		case $ring in
		0)	how="$c, no writer thread" ;;
		*)	how="$c, a writer thread with a 1 MiB ring" ;;
		esac
		t_check "$how: the copy's statistics count every record" \
		    mapi write "$in" "$out" $c 4096 $ring
		decompress $c "$out" >"$TMPDIR/back" 2>/dev/null
		t_check "$how: the tool decompresses it to the plain savefile" \
		    cmp "$TMPDIR/back" "$plain"
		rm -f "$TMPDIR/back"
		LD_LIBRARY_PATH=$MASTER_LIB "$MASTER_TCPDUMP" -r "$out" \
		    -w "$TMPDIR/back" 2>/dev/null
		t_check "$how: the master series' tcpdump reads it as the plain savefile" \
		    cmp "$TMPDIR/back" "$plain"
	done
done
t_done
