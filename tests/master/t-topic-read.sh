#!/bin/sh
#
# Pull request libpcap/03-read-compressed of the master series: the
# tcpdump that t-series.sh built from both master series reads gzip, LZ4
# and zstd savefiles exactly as the plain one, whoever compressed them:
# the tools (one stream, and several members or frames cut mid-record),
# or our release dumper (tcpdump --compress, block by block).  From a
# file, from standard input and through a pipe; pcapng inside as well as
# pcap; pcap_file()'s stream seeks as the plain file's; a damaged file
# fails with the reader's message and exit status 1.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd gzip lz4 zstd cmp split

. "$SLUICE_SRCDIR/tests/master/master-build.sh"
PCAPS=$SLUICE_BUILDDIR/src/tcpdump-4.99.6/tests
if [ ! -f "$PCAPS/afs.pcap" ]; then
	echo "1..0 # SKIP tcpdump's test captures not found under $PCAPS"
	exit 77
fi

# mread ARGS: the master series' tcpdump.
mread() {
	LD_LIBRARY_PATH=$MASTER_LIB "$MASTER_TCPDUMP" "$@"
}

# tool CODEC: compress standard input as the tool does.
tool() {
	case $1 in
	gzip)	gzip -c ;;
	lz4)	lz4 -c -q ;;
	zstd)	zstd -c -q ;;
	esac
}

plain=$TMPDIR/plain.pcap
"$TCPDUMP" -r "$PCAPS/afs.pcap" -w "$plain" 2>/dev/null
t_check "the plain capture is made" test -s "$plain"
mread -n -r "$plain" >"$TMPDIR/plain.txt" 2>/dev/null
split -b 100000 "$plain" "$TMPDIR/piece."
npieces=$(ls "$TMPDIR"/piece.* | wc -l)

for c in gzip lz4 zstd; do
	tool $c <"$plain" >"$TMPDIR/one.$c"
	: >"$TMPDIR/multi.$c"
	for p in "$TMPDIR"/piece.*; do
		tool $c <"$p" >>"$TMPDIR/multi.$c"
	done
	"$TCPDUMP" -r "$plain" -w "$TMPDIR/ours.$c" --compress=$c 2>/dev/null
	for f in one multi ours; do
		rm -f "$TMPDIR/back"
		mread -r "$TMPDIR/$f.$c" -w "$TMPDIR/back" 2>/dev/null
		case $f in
		one)	what="$c(1), one stream" ;;
		multi)	what="$c(1), $npieces pieces cut mid-record" ;;
		ours)	what="our release's --compress=$c, block by block" ;;
		esac
		t_check "$what: tcpdump -r -w gives the plain savefile" \
		    cmp "$TMPDIR/back" "$plain"
	done
	mread -n -r "$TMPDIR/multi.$c" >"$TMPDIR/multi.txt" 2>/dev/null
	t_check "$c: tcpdump -n -r prints what it prints for the plain file" \
	    cmp "$TMPDIR/multi.txt" "$TMPDIR/plain.txt"
	rm -f "$TMPDIR/back"
	mread -r - -w "$TMPDIR/back" <"$TMPDIR/one.$c" 2>/dev/null
	t_check "$c on standard input" cmp "$TMPDIR/back" "$plain"
	rm -f "$TMPDIR/back"
	cat "$TMPDIR/multi.$c" | mread -r - -w "$TMPDIR/back" 2>/dev/null
	t_check "$c through a pipe" cmp "$TMPDIR/back" "$plain"
done

# pcapng inside.
ng=$PCAPS/bgp-link-bw-extcommunity.pcapng
mread -n -r "$ng" >"$TMPDIR/ng.txt" 2>/dev/null
gzip -c <"$ng" >"$TMPDIR/ng.gz"
mread -n -r "$TMPDIR/ng.gz" >"$TMPDIR/ng-gz.txt" 2>/dev/null
t_check "a gzip-compressed pcapng file prints as the plain one" \
    cmp "$TMPDIR/ng-gz.txt" "$TMPDIR/ng.txt"
t_check "... which has packets" test -s "$TMPDIR/ng.txt"

# Seeking in the stream behind pcap_file(), with the master series'
# libpcap: seek-test compares every ftell(), fseek(), read and packet
# with those of the plain file, for a file of each tool and ours.
records=$(mread -r "$plain" 2>/dev/null | wc -l)
inc=$master/libpcap-installed/include
if $CC -I"$inc" -o "$TMPDIR/seek-test" "$SLUICE_SRCDIR/tests/compress/seek-test.c" \
    -L"$MASTER_LIB" -lpcap -lzstd >"$TMPDIR/cc.log" 2>&1; then
	for f in one.gzip multi.lz4 ours.zstd; do
		if LD_LIBRARY_PATH=$MASTER_LIB "$TMPDIR/seek-test" same "$plain" \
		    "$TMPDIR/$f" 1000 >"$TMPDIR/out" 2>"$TMPDIR/err" &&
		    grep -q "^$records packets$" "$TMPDIR/out"; then
			t_ok "$f: seeks as the plain file does: $(tr '\n' ',' <"$TMPDIR/out" | sed 's/,$//')"
		else
			t_fail "$f: seeking: $(cat "$TMPDIR/err" "$TMPDIR/out" | head -3)"
		fi
	done
else
	t_fail "seek-test.c builds against the master series' libpcap: $(head -3 "$TMPDIR/cc.log")"
fi

# A zstd file cut inside its first frame.
head -c 40 "$TMPDIR/one.zstd" >"$TMPDIR/cut.zst"
mread -r "$TMPDIR/cut.zst" >/dev/null 2>"$TMPDIR/err"
t_expect_eq "a cut zstd file: exit status" 1 "$?"
t_check "... and the reader's message" grep -qx \
    "tcpdump: truncated zstd compressed file: it ends inside the block starting at byte offset 0" \
    "$TMPDIR/err"
t_done
