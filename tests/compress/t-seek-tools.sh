#!/bin/sh
#
# Debian's programs that seek through pcap_file() give the same results
# on our compressed captures as on the plain capture, run with our
# library under the name they link against (libpcap.so.0.8):
# tcpslice, which binary-searches the file by time to cut a window out
# of it, and nfdump's nfpcapd, which reads one packet and seeks back to
# the first (on a stream that cannot seek it would go on a packet
# short, silently).  tcpslice 1.8 and later (Debian 13's) ask fileno()
# for the descriptor of pcap_file(), only to pass posix_fadvise() a
# hint, and stop when there is none; a compressed savefile's stream has
# none (pcap_file(3PCAP)), so with those the test checks that they stop
# and say why.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd tcpslice nfpcapd nfdump cmp
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

case "$CFLAGS" in
*-fsanitize=*)
	# The programs are Debian's, built without the sanitizer runtime
	# that a sanitizer build of our library needs loaded first.
	echo "1..0 # SKIP Debian's binaries cannot load a sanitizer build of libpcap"
	exit 77 ;;
esac
ourlib=${LD_LIBRARY_PATH%%:*}/$SLUICE_LIBPCAP_SONAME
if [ ! -f "$ourlib" ]; then
	t_fail "our staged library at $ourlib"
	t_done
fi
mkdir -p "$TMPDIR/lib"
ln -sf "$ourlib" "$TMPDIR/lib/libpcap.so.0.8"
# with_ours CMD...: run a Debian program with our library.
with_ours() {
	LD_LIBRARY_PATH=$TMPDIR/lib "$@"
}
if with_ours ldd "$(command -v tcpslice)" | grep -q "$TMPDIR/lib/libpcap.so.0.8"; then
	t_ok "tcpslice loads our library as libpcap.so.0.8"
else
	t_fail "tcpslice does not load our library: $(with_ours ldd "$(command -v tcpslice)" | grep pcap)"
fi

slice_version=$(tcpslice --version 2>&1 | sed -n 's/^tcpslice version //p')
case $slice_version in
1.[0-7]|1.[0-7].*) slice_reads=yes ;;
*) slice_reads=no ;;
esac

plain=$PCAPS/afs.pcap
# The 100th and 400th of its 601 packets' times bound the window.
from=$("$TCPDUMP" -tt -r "$plain" 2>/dev/null | sed -n 100p | cut -d' ' -f1)
to=$("$TCPDUMP" -tt -r "$plain" 2>/dev/null | sed -n 400p | cut -d' ' -f1)

# nfpcapd_counts FILE: "flows packets" that nfpcapd makes of FILE.
nfpcapd_counts() {
	rm -rf "$TMPDIR/flows" && mkdir "$TMPDIR/flows" &&
	with_ours timeout 60 nfpcapd -r "$1" -w "$TMPDIR/flows" \
	    >"$TMPDIR/nfpcapd.out" 2>&1 &&
	nfdump -R "$TMPDIR/flows" -q -o "fmt:%pkt" |
	    awk '{ f++; p += $1 } END { print f + 0, p + 0 }'
}

if ! with_ours tcpslice -w "$TMPDIR/slice.plain" "$from" "$to" "$plain" \
    2>"$TMPDIR/err"; then
	t_fail "tcpslice on the plain capture: $(head -2 "$TMPDIR/err")"
fi
want_flows=$(nfpcapd_counts "$plain")
t_check "nfpcapd on the plain capture processes all 601 packets" \
    grep -q "Processed: 601," "$TMPDIR/nfpcapd.out"

for c in $CODECS; do
	for how in ours tool; do
		f=$TMPDIR/afs.$how.$c
		if [ $how = ours ]; then
			"$API" write "$plain" "$f" $c 4096 >/dev/null 2>&1
		else
			compress_with_tool $c <"$plain" >"$f"
		fi
		rm -f "$TMPDIR/slice"
		if [ $slice_reads = no ]; then
			with_ours tcpslice -w "$TMPDIR/slice" "$from" "$to" "$f" \
			    2>"$TMPDIR/err"
			t_expect_eq "$c ($how): tcpslice $slice_version stops, for want of a descriptor" \
			    "tcpslice: fileno() failed: Bad file descriptor" "$(cat "$TMPDIR/err")"
		elif with_ours tcpslice -w "$TMPDIR/slice" "$from" "$to" "$f" \
		    2>"$TMPDIR/err" && cmp -s "$TMPDIR/slice" "$TMPDIR/slice.plain"; then
			t_ok "$c ($how): tcpslice cuts the same window as from the plain file"
		else
			t_fail "$c ($how): tcpslice: $(head -2 "$TMPDIR/err")"
		fi
		got=$(nfpcapd_counts "$f")
		if [ "$got" = "$want_flows" ] &&
		    grep -q "Processed: 601," "$TMPDIR/nfpcapd.out"; then
			t_ok "$c ($how): nfpcapd: 601 packets, flows and packets as plain ($got)"
		else
			t_fail "$c ($how): nfpcapd: '$got' (plain: '$want_flows'): $(grep Processed "$TMPDIR/nfpcapd.out")"
		fi
	done
done
t_done
