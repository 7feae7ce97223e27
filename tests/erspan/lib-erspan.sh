# tests/erspan/lib-erspan.sh -- shared by the ERSPAN tests; source it
# after tests/lib.sh.

# erspan_inner_fields FILE DISPLAY-FILTER [EXTRA-FIELDS]: per frame of FILE
# that matches DISPLAY-FILTER, tshark's view of the inner layers: the
# protocol chain after "erspan", the inner Ethernet header (the last one
# tshark sees) and fields only inner layers have, tab-separated.  Frames
# whose inner part was cut come out without an inner Ethernet header:
# tshark does not dissect it.
erspan_inner_fields() {
	# shellcheck disable=SC2086
	tshark -r "$1" -o tcp.relative_sequence_numbers:FALSE -T fields \
	    -e frame.protocols -e eth.dst -e eth.src -e eth.type \
	    -e tcp.srcport -e tcp.seq -e udp.srcport -e udp.length \
	    -e icmp.seq -e arp.src.proto_ipv4 ${3:-} \
	    -E occurrence=l -Y "$2" 2>/dev/null |
	    awk -F '\t' 'BEGIN { OFS = "\t" } { sub(/^.*:erspan:/, "", $1); print }'
}

# erspan_check_inner LABEL REF INNER: one check: the frames of INNER
# (decapsulated, Ethernet) are tshark's inner layers of the whole, valid
# ERSPAN frames of REF, field for field and in order.
erspan_check_inner() {
	erspan_inner_fields "$2" \
	    'erspan && !(erspan.ft != 0) && frame.len == frame.cap_len' \
	    >"$TMPDIR/outer.txt"
	erspan_inner_fields "$3" 'frame.len == frame.cap_len' >"$TMPDIR/inner.txt"
	if [ -s "$TMPDIR/inner.txt" ] &&
	    cmp -s "$TMPDIR/outer.txt" "$TMPDIR/inner.txt"; then
		t_ok "$1: inner frames = tshark's inner layers ($(wc -l <"$TMPDIR/inner.txt"))"
	else
		t_fail "$1: inner frames = tshark's inner layers"
		diff "$TMPDIR/outer.txt" "$TMPDIR/inner.txt" | head -10 | sed 's/^/#   /'
	fi
}

# erspan_check_lengths LABEL INNER N: one check: INNER holds N whole
# frames, each as long as its inner IP datagram plus the 14-byte
# Ethernet header.  The inner length comes from the outer IP length:
# padding after the outer datagram is not part of the inner frame.
erspan_check_lengths() {
	_ecl=$(tshark -r "$2" -Y 'frame.len == frame.cap_len' -T fields \
	    -e frame.len -e ip.len -E occurrence=f 2>/dev/null |
	    awk '$1 != $2 + 14 { n++ } END { print n + 0 "/" NR }')
	t_expect_eq "$1: inner frame length = inner IP length + 14" "0/$3" "$_ecl"
}
