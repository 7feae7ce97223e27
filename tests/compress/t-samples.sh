#!/bin/sh
#
# The savefiles that the master series adds to libpcap's TESTrun
# (libpcap/tests/filter/compressed.pcap*, libpcap/tests/compressed-*,
# made by tests/master/samples.py), read by our release build: the gzip,
# LZ4 and zstd files give the plain one back byte for byte, and each
# damaged file fails with the message TESTrun expects on master.

. "$SLUICE_SRCDIR/tests/lib.sh"

dir=$SLUICE_SRCDIR/libpcap/tests
for ext in gz lz4 zst; do
	rm -f "$TMPDIR/back"
	"$TCPDUMP" -r "$dir/filter/compressed.pcap.$ext" -w "$TMPDIR/back" 2>/dev/null
	t_check "compressed.pcap.$ext: tcpdump -r -w gives compressed.pcap" \
	    cmp "$TMPDIR/back" "$dir/filter/compressed.pcap"
done
t_expect_eq "compressed.pcap holds six packets" 6 \
    "$("$TCPDUMP" -r "$dir/filter/compressed.pcap" 2>/dev/null | wc -l)"

# refused FILE MESSAGE: tcpdump -r FILE exits 1 with "tcpdump: MESSAGE".
refused() {
	"$TCPDUMP" -r "$dir/$1" >/dev/null 2>"$TMPDIR/err"
	t_expect_eq "$1: exit status" 1 "$?"
	t_expect_eq "$1: the message" "tcpdump: $2" "$(cat "$TMPDIR/err")"
}
refused compressed-not-a-capture.gz \
    "gzip compressed file does not contain a pcap or pcapng capture"
refused compressed-truncated.pcap.zst \
    "truncated zstd compressed file: it ends inside the block starting at byte offset 0"
refused compressed-bad-crc.pcap.gz \
    "corrupt gzip compressed file: bad block at byte offset 0: incorrect data check"
t_done
