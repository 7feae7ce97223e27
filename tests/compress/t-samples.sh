#!/bin/sh
#
# The savefiles that the master series adds to libpcap's TESTrun
# (libpcap/tests/filter/compressed.pcap*, libpcap/tests/compressed-*,
# made by tests/master/samples.py), read by our release build: the gzip,
# LZ4 and zstd files give the plain one back byte for byte, the pcapng
# ones the same packets, the large file its 65 packets from one frame,
# and each damaged file fails with the message TESTrun expects on
# master.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd zstd

dir=$SLUICE_SRCDIR/libpcap/tests
for ext in gz lz4 zst; do
	rm -f "$TMPDIR/back"
	"$TCPDUMP" -r "$dir/filter/compressed.pcap.$ext" -w "$TMPDIR/back" 2>/dev/null
	t_check "compressed.pcap.$ext: tcpdump -r -w gives compressed.pcap" \
	    cmp "$TMPDIR/back" "$dir/filter/compressed.pcap"
done
t_expect_eq "compressed.pcap holds six packets" 6 \
    "$("$TCPDUMP" -r "$dir/filter/compressed.pcap" 2>/dev/null | wc -l)"
"$TCPDUMP" -n -r "$dir/filter/compressed.pcap" >"$TMPDIR/pcap.txt" 2>/dev/null
for f in compressed.pcapng compressed.pcapng.gz compressed.pcapng.lz4 \
    compressed.pcapng.zst; do
	"$TCPDUMP" -n -r "$dir/filter/$f" >"$TMPDIR/ng.txt" 2>/dev/null
	t_check "$f: the six packets of compressed.pcap" \
	    cmp "$TMPDIR/ng.txt" "$TMPDIR/pcap.txt"
done
big=$dir/filter/compressed-large.pcap.zst
t_expect_eq "compressed-large.pcap.zst: 65 packets, 33 of them UDP" "65 33" \
    "$("$TCPDUMP" -r "$big" 2>/dev/null | wc -l) $("$TCPDUMP" -r "$big" udp 2>/dev/null | wc -l)"
t_expect_eq "... 17,040,424 bytes in one zstd frame, more than the 16 MiB a unit is held to" \
    "17040424 1" \
    "$(zstd -dcq <"$big" | wc -c) $(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$big" | wc -l)"

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
