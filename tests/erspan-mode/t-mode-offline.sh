#!/bin/sh
# tcpdump -r RAW --erspan [-w INNER] [EXPR]: a savefile of raw ERSPAN
# traffic is decapsulated by libpcap's ERSPAN mode.  The frames written
# must be tshark's inner frames (same count, same inner headers and
# fields), written as Ethernet; the filter must apply to the inner
# frames; --erspan=N must keep session N; and the frames skipped as not
# ERSPAN must be counted exactly (crafted broken frames, and the
# non-ERSPAN frames of the sample captures).
. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd tshark

src=$SLUICE_SRCDIR
data=$src/../shared/testdata/erspan
gen=$TMPDIR/erspan-pcap
if build_c "$gen" "$src/tests/gen/erspan-pcap.c" "$src/tests/gen/erspan-craft.c"; then
	t_ok "build erspan-pcap"
else
	t_fail "build erspan-pcap"
	t_done
fi
v=$TMPDIR/variants.pcap
b=$TMPDIR/broken.pcap
t_check "craft valid variants" "$gen" "$v" variants
t_check "craft broken frames" "$gen" "$b" broken
# Both in one Ethernet savefile: the second file without its header.
m=$TMPDIR/mixed.pcap
{ cat "$v"; tail -c +25 "$b"; } >"$m"

ts_count() {
	tshark -r "$1" -Y "$2" 2>/dev/null | wc -l | tr -d ' '
}
# Records in a savefile, by tcpdump --count.
n_records() {
	"$TCPDUMP" -r "$1" --count 2>/dev/null | sed -n 's/ packets*$//p'
}
# skipped ERR: the "N packets skipped as not ERSPAN" figures of tcpdump,
# a line a file; 0 when there is none (a file with nothing skipped says
# nothing).
skipped() {
	_sk=$(sed -n 's/^\([0-9][0-9]*\) packets* skipped as not ERSPAN$/\1/p' "$1")
	echo "${_sk:-0}"
}

. "$SLUICE_SRCDIR/tests/erspan/lib-erspan.sh"

# check_file LABEL RAW [REF]: --erspan -w over RAW equals tshark's
# inner frames of REF (default RAW): the ERSPAN frames tshark sees in
# the crafted broken frames are exactly those pcapint_erspan_decap()
# must refuse, so with them REF is the valid part only.
check_file() {
	_label=$1
	_raw=$2
	_ref=${3:-$2}
	_inner=$TMPDIR/inner.pcap
	rm -f "$_inner"
	if ! "$TCPDUMP" -r "$_raw" --erspan -w "$_inner" 2>"$TMPDIR/td.err"; then
		t_fail "$_label: tcpdump --erspan -w: $(cat "$TMPDIR/td.err")"
		return
	fi
	_want=$(ts_count "$_ref" 'erspan && !(erspan.ft != 0)')
	_total=$(n_records "$_raw")
	t_expect_eq "$_label: frames written = tshark's ERSPAN frames" \
	    "$_want" "$(n_records "$_inner")"
	t_expect_eq "$_label: skipped as not ERSPAN = $_total - $_want" \
	    "$((_total - _want))" "$(skipped "$TMPDIR/td.err")"
	"$TCPDUMP" -r "$_inner" -c 1 >/dev/null 2>"$TMPDIR/rd.err"
	t_check "$_label: reading it back says EN10MB" \
	    grep -q 'link-type EN10MB (Ethernet)' "$TMPDIR/rd.err"
	if [ "$_want" -eq 0 ]; then
		return
	fi
	erspan_check_inner "$_label" "$_ref" "$_inner"
}

check_file "variants" "$v"
if grep -q 'skipped as not ERSPAN' "$TMPDIR/td.err"; then
	t_fail "variants: nothing skipped, and nothing said about it"
else
	t_ok "variants: nothing skipped, and nothing said about it"
fi
erspan_check_lengths variants "$TMPDIR/inner.pcap" 146
# Broken frames: none is written, all are counted.
rm -f "$TMPDIR/inner.pcap"
"$TCPDUMP" -r "$b" --erspan -w "$TMPDIR/inner.pcap" 2>"$TMPDIR/td.err"
nb=$(n_records "$b")
t_expect_eq "broken: no frame written" 0 "$(n_records "$TMPDIR/inner.pcap")"
t_expect_eq "broken: all $nb skipped as not ERSPAN" "$nb" \
    "$(skipped "$TMPDIR/td.err")"
check_file "variants+broken" "$m" "$v"

# The filter applies to the inner frames, and a session is kept.
while IFS='|' read -r opt expr want; do
	"$TCPDUMP" -r "$m" $opt -w "$TMPDIR/f.pcap" "$expr" 2>"$TMPDIR/f.err"
	t_expect_eq "$opt '$expr' on variants+broken = tshark '$want' on variants" \
	    "$(ts_count "$v" "$want")" "$(n_records "$TMPDIR/f.pcap")"
done <<PAIRS
--erspan|tcp port 80|erspan && tcp.port == 80
--erspan=7|tcp port 80|erspan.spanid == 7 && tcp.port == 80
--erspan=7||erspan.spanid == 7 && !(erspan.ft != 0)
--erspan=0||erspan.spanid == 0 && !(erspan.ft != 0)
--erspan|udp port 53|erspan && udp.port == 53
--erspan|ip6|erspan && ipv6 && !(ip)
PAIRS
n7=$(ts_count "$v" 'erspan.spanid == 7 && !(erspan.ft != 0)')
nall=$(ts_count "$v" 'erspan && !(erspan.ft != 0)')
t_check "the session counts differ from the total ($n7 < $nall)" \
    test "$n7" -gt 0 -a "$n7" -lt "$nall"

# Printing the inner frames (no -w): as Ethernet, one line each.
n=$("$TCPDUMP" -n -r "$m" --erspan 'tcp port 80' 2>/dev/null | grep -c ' IP 192.168.0.1.* > 192.168.0.2.80: ')
t_expect_eq "printed: one Ethernet/IPv4/TCP line per port-80 frame" \
    "$(ts_count "$v" 'erspan && tcp.dstport == 80 && ip')" "$n"

# -V: every file is decapsulated, and each reports its skipped frames.
printf '%s\n%s\n' "$b" "$v" >"$TMPDIR/list"
"$TCPDUMP" -V "$TMPDIR/list" --erspan -w "$TMPDIR/vv.pcap" 2>"$TMPDIR/vv.err"
t_expect_eq "-V broken, variants: frames written" "$nall" \
    "$(n_records "$TMPDIR/vv.pcap")"
t_expect_eq "-V broken, variants: skipped, said for the file that had some" \
    "$nb" "$(skipped "$TMPDIR/vv.err")"

# -V printing: the second file is read in the mode too, with the
# filter compiled for it (no -w to keep the first file's program).
printf '%s\n%s\n' "$v" "$v" >"$TMPDIR/list2"
n1=$("$TCPDUMP" -n -r "$v" --erspan 'tcp port 80' 2>/dev/null | wc -l)
n2=$("$TCPDUMP" -n -V "$TMPDIR/list2" --erspan 'tcp port 80' 2>/dev/null | wc -l)
t_expect_eq "-V variants twice, printed: twice the frames of one" \
    "$((2 * n1))" "$n2"

# "len", "less" and "greater" are about the frames delivered: the same
# frames as those filters on the decapsulated file.
"$TCPDUMP" -r "$v" --erspan -w "$TMPDIR/inner-v.pcap" 2>/dev/null
for expr in 'greater 100' 'less 80' 'len >= 52 and len <= 63' 'less 60'; do
	"$TCPDUMP" -r "$v" --erspan -w "$TMPDIR/l.pcap" "$expr" 2>/dev/null
	"$TCPDUMP" -r "$TMPDIR/inner-v.pcap" -w "$TMPDIR/l2.pcap" "$expr" 2>/dev/null
	t_expect_eq "--erspan '$expr' = '$expr' on the inner frames" \
	    "$(n_records "$TMPDIR/l2.pcap")" "$(n_records "$TMPDIR/l.pcap")"
done
t_check "'less 60' selects some frames, not all" \
    test "$(n_records "$TMPDIR/l.pcap")" -gt 0 -a \
    "$(n_records "$TMPDIR/l.pcap")" -lt "$nall"

# A pcapng file with two Ethernet interfaces is read in the mode.
python3 - "$v" "$TMPDIR/two-if.pcapng" <<'PY'
import struct, sys
src = open(sys.argv[1], 'rb').read()
out = open(sys.argv[2], 'wb')
def block(btype, body):
    body += b'\0' * (-len(body) % 4)
    n = 12 + len(body)
    out.write(struct.pack('<II', btype, n) + body + struct.pack('<I', n))
block(0x0A0D0D0A, struct.pack('<IHHq', 0x1A2B3C4D, 1, 0, -1))
for _ in range(2):
    block(1, struct.pack('<HHI', 1, 0, 65535))
off, i = 24, 0
while off + 16 <= len(src):
    sec, usec, cap, wire = struct.unpack('<IIII', src[off:off + 16])
    ts = sec * 1000000 + usec
    block(6, struct.pack('<IIIII', i % 2, ts >> 32, ts & 0xffffffff, cap, wire)
          + src[off + 16:off + 16 + cap])
    off, i = off + 16 + cap, i + 1
PY
if "$TCPDUMP" -r "$TMPDIR/two-if.pcapng" --erspan -w "$TMPDIR/png.pcap" 2>"$TMPDIR/png.err"; then
	t_expect_eq "pcapng with two Ethernet interfaces: as many frames as the pcap" \
	    "$nall" "$(n_records "$TMPDIR/png.pcap")"
else
	t_fail "pcapng with two Ethernet interfaces: $(cat "$TMPDIR/png.err")"
fi

# Bad input.
# A savefile that says its link-layer type is DLT_ERSPAN's provisional
# value (35006): no LINKTYPE_ is, and it must not select the mode.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\276\210\000\000' \
    >"$TMPDIR/35006.pcap"
if err=$("$TCPDUMP" -r "$TMPDIR/35006.pcap" 2>&1); then
	t_fail "a savefile of link-layer type 35006 is refused: it was read"
else
	case $err in
	*"the savefile's link-layer type 35006 is the provisional value of DLT_ERSPAN, which no savefile has"*)
		t_ok "a savefile of link-layer type 35006 is refused" ;;
	*)	t_fail "a savefile of link-layer type 35006 is refused: '$err'" ;;
	esac
fi
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\145\000\000\000' \
    >"$TMPDIR/raw.pcap"
if err=$("$TCPDUMP" -r "$TMPDIR/raw.pcap" --erspan 2>&1); then
	t_fail "--erspan on a LINKTYPE_RAW file fails: it succeeded"
else
	case $err in
	*"--erspan: ERSPAN is not one of the DLTs supported by this device"*)
		t_ok "--erspan on a LINKTYPE_RAW file fails" ;;
	*)	t_fail "--erspan on a LINKTYPE_RAW file fails: '$err'" ;;
	esac
fi

# The sample captures.
if [ -d "$data" ]; then
	for f in "$data"/*.pcap; do
		check_file "$(basename "$f")" "$f"
	done
else
	t_skip "sample captures" "$data is absent"
fi
t_done
