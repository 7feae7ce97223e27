#!/bin/sh
# t-gen.sh -- offline tests of the traffic generator (sluice-gen), the
# sequence checker (sluice-seqcheck) and slowsink.
#
# The generator writes pcap files by hand; the checker reads them through
# our libpcap, and tshark (when installed) decodes them independently.
# Damaged captures are made by cutting and splicing the records of a
# generated file: fixed64 records are all 16 + 60 bytes long.

. "$SLUICE_SRCDIR/tests/lib.sh"

d=$SLUICE_SRCDIR/tests/gen
build_traffic_tools
t_ok "make built sluice-gen, sluice-seqcheck, slowsink"

N=100
types="fixed64 fixed1518 random64 random1518 slammer http"

# --- every type: N frames, all present in order ----------------------------
for t in $types; do
	if "$GEN" --type "$t" --count $N --seed 7 --out "$TMPDIR/$t.pcap" \
	    2>"$TMPDIR/$t.err"; then
		t_check "$t: seqcheck finds frames 0..$((N - 1)) in order" \
		    "$CHK" --quiet --expect $N "$TMPDIR/$t.pcap"
	else
		t_fail "$t: generate $N frames: $(cat "$TMPDIR/$t.err")"
	fi
done
t_expect_eq "the generator reports what it wrote" \
    "sluice-gen: wrote $N frames to $TMPDIR/http.pcap" \
    "$(cat "$TMPDIR/http.err")"

# Fixed-size types: the file size gives every record's length.
for tl in fixed64:60 fixed1518:1514 random64:60 random1518:1514 slammer:418; do
	t=${tl%%:*}
	l=${tl#*:}
	t_expect_eq "$t: $N records of $l bytes" \
	    $((24 + N * (16 + l))) "$(wc -c <"$TMPDIR/$t.pcap" | tr -d ' ')"
done

# The marker is where sluice-seq.h says: UDP payload at frame offset 42,
# TCP option at 54 (magic at 58).  Frame 0 starts at file offset 40.
t_expect_eq "fixed64: marker of frame 0 at frame offset 42" \
    "SLSQ" "$(tail -c +$((40 + 42 + 1)) "$TMPDIR/fixed64.pcap" | head -c 4)"
t_expect_eq "http: marker of frame 0 at frame offset 58" \
    "SLSQ" "$(tail -c +$((40 + 58 + 1)) "$TMPDIR/http.pcap" | head -c 4)"
t_expect_eq "http: TCP payload of frame 0 starts with GET" \
    "GET " "$(tail -c +$((40 + 66 + 1)) "$TMPDIR/http.pcap" | head -c 4)"

# --- determinism ------------------------------------------------------------
for t in random64 slammer http; do
	"$GEN" --type "$t" --count $N --seed 7 --out "$TMPDIR/$t.again" 2>/dev/null
	t_check "$t: the same seed gives an identical file" \
	    cmp "$TMPDIR/$t.pcap" "$TMPDIR/$t.again"
	"$GEN" --type "$t" --count $N --seed 8 --out "$TMPDIR/$t.other" 2>/dev/null
	if cmp -s "$TMPDIR/$t.pcap" "$TMPDIR/$t.other"; then
		t_fail "$t: another seed gives other frames"
	else
		t_ok "$t: another seed gives other frames"
	fi
done

# Fixed frames differ only in the sequence number: frames 0 and 1 of two
# one-frame files differ in exactly one byte (the last of the number).
"$GEN" --type fixed1518 --count 1 --out "$TMPDIR/f0.pcap" 2>/dev/null
"$GEN" --type fixed1518 --count 1 --seq-start 1 --out "$TMPDIR/f1.pcap" \
    2>/dev/null
t_expect_eq "fixed1518: frames differ only in the sequence number" \
    "1" "$(cmp -l "$TMPDIR/f0.pcap" "$TMPDIR/f1.pcap" | wc -l | tr -d ' ')"
t_check "--seq-start 1: seqcheck sees frame 1" \
    "$CHK" --quiet --expect 1 --seq-start 1 "$TMPDIR/f1.pcap"

"$GEN" --type http --count $N --seed 7 --out - 2>/dev/null >"$TMPDIR/stdout.pcap"
t_check "--out - writes the same bytes to standard output" \
    cmp "$TMPDIR/http.pcap" "$TMPDIR/stdout.pcap"

"$GEN" --type random64 --count 10 --vlan 100 --out "$TMPDIR/vlan.pcap" \
    2>/dev/null
t_expect_eq "--vlan: 64-byte tagged frames" \
    $((24 + 10 * (16 + 64))) "$(wc -c <"$TMPDIR/vlan.pcap" | tr -d ' ')"
t_check "--vlan: seqcheck finds the marker behind the tag" \
    "$CHK" --quiet --expect 10 "$TMPDIR/vlan.pcap"

# --- ERSPAN encapsulation ----------------------------------------------------
# fixed64 in type II: outer Ethernet 14 + IPv4 20 + GRE 8 + ERSPAN 8 = 50.
"$GEN" --type fixed64 --count 10 --out "$TMPDIR/plain.pcap" 2>/dev/null
for e in 1 2 3; do
	"$GEN" --type http --count $N --seed 7 --erspan $e \
	    --out "$TMPDIR/erspan$e.pcap" 2>/dev/null
	t_check "--erspan $e: seqcheck finds the marker in the inner frames" \
	    "$CHK" --quiet --expect $N "$TMPDIR/erspan$e.pcap"
done
"$GEN" --type fixed64 --count 10 --erspan 2 --erspan-session 77 \
    --out "$TMPDIR/e2.pcap" 2>/dev/null
t_expect_eq "--erspan 2: 110-byte frames" $((24 + 10 * (16 + 110))) \
    "$(wc -c <"$TMPDIR/e2.pcap" | tr -d ' ')"
t_check "--erspan 2: the inner frame is the plain frame" \
    cmp -n 60 -i $((40 + 50 + 9 * (16 + 110))):$((40 + 9 * (16 + 60))) \
    "$TMPDIR/e2.pcap" "$TMPDIR/plain.pcap"

# --- independent decode with tshark ----------------------------------------
if command -v tshark >/dev/null 2>&1; then
	# Random payloads to random ports look like broken packets of
	# whatever protocol tshark guesses from the port, so expert
	# warnings count only for the other types.
	for t in $types; do
		f='ip.checksum.status == 0 || udp.checksum.status == 0 || tcp.checksum.status == 0 || _ws.malformed'
		case $t in
		random*)	;;
		*)		f="$f || _ws.expert.severity >= warning" ;;
		esac
		bad=$(tshark -n -r "$TMPDIR/$t.pcap" \
		    -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		    -o tcp.check_checksum:TRUE -Y "$f" \
		    2>/dev/null | wc -l | tr -d ' ')
		t_expect_eq "$t: tshark finds no bad checksum or malformed frame" \
		    0 "$bad"
	done
	t_expect_eq "http: tshark decodes $N HTTP GET requests" $N \
	    "$(tshark -n -r "$TMPDIR/http.pcap" -Y 'http.request.method == "GET" && tcp.dstport == 80' \
	    2>/dev/null | wc -l | tr -d ' ')"
	t_expect_eq "slammer: tshark sees $N UDP datagrams of 404 bytes to 1434" \
	    $N "$(tshark -n -r "$TMPDIR/slammer.pcap" -Y 'udp.dstport == 1434 && ip.len == 404' \
	    2>/dev/null | wc -l | tr -d ' ')"
	t_expect_eq "--erspan 2: tshark sees session 77, GRE sequence = frame" \
	    "0 1 2 3 4 5 6 7 8 9" \
	    "$(tshark -n -r "$TMPDIR/e2.pcap" -Y 'erspan.spanid == 77 && erspan.version == 1' \
	    -T fields -e gre.sequence_number 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
	for e in 1 2 3; do
		t_expect_eq "--erspan $e: tshark decodes $N inner HTTP GETs" $N \
		    "$(tshark -n -r "$TMPDIR/erspan$e.pcap" -Y 'gre && http.request.method == "GET"' \
		    2>/dev/null | wc -l | tr -d ' ')"
	done
	t_expect_eq "--vlan: tshark sees VLAN 100" 10 \
	    "$(tshark -n -r "$TMPDIR/vlan.pcap" -Y 'vlan.id == 100' \
	    2>/dev/null | wc -l | tr -d ' ')"
else
	t_skip "independent decode" "tshark is not installed"
fi

# seqcheck reads through libpcap: pcapng works as well.
if command -v editcap >/dev/null 2>&1 &&
    editcap -F pcapng "$TMPDIR/http.pcap" "$TMPDIR/http.pcapng" 2>/dev/null; then
	t_check "seqcheck reads pcapng and matches the pcap original" \
	    "$CHK" --quiet --expect $N --compare "$TMPDIR/http.pcap" \
	    "$TMPDIR/http.pcapng"
else
	t_skip "seqcheck reads pcapng" "editcap is not installed"
fi

# --- seqcheck on damaged captures -------------------------------------------
R=76	# fixed64 record: 16-byte header + 60-byte frame
"$GEN" --type fixed64 --count 10 --out "$TMPDIR/ten.pcap" 2>/dev/null

# splice OUT RECORD...: the file header of ten.pcap, then its records in
# the order given.
splice() {
	_out=$1
	shift
	{
		head -c 24 "$TMPDIR/ten.pcap"
		for _r in "$@"; do
			tail -c +$((24 + _r * R + 1)) "$TMPDIR/ten.pcap" | head -c $R
		done
	} >"$_out"
}

# field FILE NAME: a "name: value" line of seqcheck's report.
field() {
	"$CHK" "$1" 2>/dev/null | sed -n "s/^$2: //p"
}

splice "$TMPDIR/same.pcap" 0 1 2 3 4 5 6 7 8 9
t_check "splice reproduces the file" cmp "$TMPDIR/ten.pcap" "$TMPDIR/same.pcap"

# A savefile with no records (-G makes one when a period has no
# packets): read, counted as none.  Under UBSan the checker used to
# abort here, on qsort() of an empty list.
splice "$TMPDIR/hdronly.pcap"
"$CHK" "$TMPDIR/hdronly.pcap" >"$TMPDIR/hdronly.out" 2>&1
t_expect_eq "header only: seqcheck exits 0" 0 $?
t_expect_eq "header only: no frames" 0 "$(field "$TMPDIR/hdronly.pcap" frames)"

splice "$TMPDIR/del.pcap" 0 1 2 4 5 6 7 8 9
t_expect_eq "deleted frame 3: missing" 1 "$(field "$TMPDIR/del.pcap" missing)"
t_expect_eq "deleted frame 3: named" 3 \
    "$(field "$TMPDIR/del.pcap" 'missing ranges' | tr -d ' ')"
"$CHK" --expect 10 "$TMPDIR/del.pcap" >/dev/null 2>"$TMPDIR/del.err"
t_expect_eq "deleted frame 3: --expect 10 exits 1" 1 $?
t_check "deleted frame 3: --expect says what is wrong" \
    grep -q "expected frames 0..9 once each in order; got 9 frames; 1 missing" \
    "$TMPDIR/del.err"

splice "$TMPDIR/dels.pcap" 0 1 5 6 9
t_expect_eq "deleted 2-4, 7-8: ranges" "2-4 7-8" \
    "$(field "$TMPDIR/dels.pcap" 'missing ranges' | sed 's/^ *//')"

splice "$TMPDIR/dup.pcap" 0 1 2 3 3 4 5 6 7 8 9
t_expect_eq "duplicated frame 3: duplicates" 1 \
    "$(field "$TMPDIR/dup.pcap" duplicates)"
t_expect_eq "duplicated frame 3: nothing missing" 0 \
    "$(field "$TMPDIR/dup.pcap" missing)"
"$CHK" --expect 10 "$TMPDIR/dup.pcap" >/dev/null 2>&1
t_expect_eq "duplicated frame 3: --expect 10 exits 1" 1 $?

splice "$TMPDIR/swap.pcap" 0 1 2 4 3 5 6 7 8 9
t_expect_eq "swapped frames 3 and 4: out-of-order" 1 \
    "$(field "$TMPDIR/swap.pcap" out-of-order)"
t_expect_eq "swapped frames 3 and 4: no loss, no duplicate" "0 0" \
    "$(field "$TMPDIR/swap.pcap" missing) $(field "$TMPDIR/swap.pcap" duplicates)"
"$CHK" --expect 10 "$TMPDIR/swap.pcap" >/dev/null 2>&1
t_expect_eq "swapped frames: --expect 10 exits 1" 1 $?
"$CHK" "$TMPDIR/swap.pcap" >/dev/null 2>&1
t_expect_eq "swapped frames: without --expect only a report (exit 0)" 0 $?

"$CHK" --expect 11 "$TMPDIR/ten.pcap" >/dev/null 2>&1
t_expect_eq "--expect 11 on 10 frames exits 1" 1 $?
"$CHK" --expect 9 "$TMPDIR/ten.pcap" >/dev/null 2>&1
t_expect_eq "--expect 9 on 10 frames exits 1" 1 $?

# A frame whose magic is damaged no longer counts as ours.
cp "$TMPDIR/ten.pcap" "$TMPDIR/nomagic.pcap"
printf 'X' | dd of="$TMPDIR/nomagic.pcap" bs=1 seek=$((24 + 5 * R + 16 + 42)) \
    conv=notrunc 2>/dev/null
t_expect_eq "damaged magic in frame 5: unmarked" 1 \
    "$(field "$TMPDIR/nomagic.pcap" unmarked)"
"$CHK" --expect 10 "$TMPDIR/nomagic.pcap" >/dev/null 2>&1
t_expect_eq "damaged magic: --expect 10 exits 1" 1 $?

# --compare: one changed payload byte, outside the marker.
cp "$TMPDIR/ten.pcap" "$TMPDIR/flip.pcap"
printf 'X' | dd of="$TMPDIR/flip.pcap" bs=1 seek=$((24 + 7 * R + 16 + 55)) \
    conv=notrunc 2>/dev/null
t_check "--compare: a file equals itself" \
    "$CHK" --quiet --compare "$TMPDIR/ten.pcap" "$TMPDIR/ten.pcap"
t_expect_eq "--compare: one changed byte, one differing frame" 1 \
    "$("$CHK" --compare "$TMPDIR/ten.pcap" "$TMPDIR/flip.pcap" 2>/dev/null |
    sed -n 's/^differing: //p')"
"$CHK" --expect 10 --compare "$TMPDIR/ten.pcap" "$TMPDIR/flip.pcap" \
    >/dev/null 2>"$TMPDIR/flip.err"
t_expect_eq "--compare: a changed byte exits 1" 1 $?
t_check "--compare: names the frame" \
    grep -q "frame 8 differs from the reference" "$TMPDIR/flip.err"

# Several references are one stream.
"$GEN" --type fixed64 --count 4 --out "$TMPDIR/a.pcap" 2>/dev/null
"$GEN" --type http --count 6 --seq-start 4 --out "$TMPDIR/b.pcap" 2>/dev/null
{
	cat "$TMPDIR/a.pcap"
	tail -c +25 "$TMPDIR/b.pcap"
} >"$TMPDIR/ab.pcap"
t_check "two references in a row match their concatenation" \
    "$CHK" --quiet --expect 10 --compare "$TMPDIR/a.pcap" \
    --compare "$TMPDIR/b.pcap" "$TMPDIR/ab.pcap"
"$CHK" --compare "$TMPDIR/a.pcap" "$TMPDIR/ab.pcap" >/dev/null 2>&1
t_expect_eq "a shorter reference is a failure" 1 $?

# A file cut inside a record: what was read is reported, exit 2.
head -c $((24 + 4 * R + 30)) "$TMPDIR/ten.pcap" >"$TMPDIR/cut.pcap"
"$CHK" "$TMPDIR/cut.pcap" >"$TMPDIR/cut.out" 2>"$TMPDIR/cut.err"
t_expect_eq "cut file: exit 2" 2 $?
t_expect_eq "cut file: the 4 whole frames are counted" 4 \
    "$(sed -n 's/^frames: //p' "$TMPDIR/cut.out")"
t_check "cut file: libpcap's error is shown" grep -q "truncated" "$TMPDIR/cut.err"

# --- --replay ------------------------------------------------------------------
# hexbin HEX...: the bytes HEX spells (spaces ignored).
hexbin() {
	# shellcheck disable=SC2059 # the format is the data: octal escapes
	printf "$(printf '%s' "$*" | tr -d ' \n' | fold -w 2 | awk '
	    BEGIN { h = "0123456789abcdef" }
	    NF { printf "\\%03o", (index(h, substr($0, 1, 1)) - 1) * 16 + index(h, substr($0, 2, 1)) - 1 }')"
}
# pcap_rec HEX: a record (time 0) holding the frame HEX (< 256 bytes).
pcap_rec() {
	_l=$(printf '%02x' $(($(printf '%s' "$1" | tr -d ' \n' | wc -c) / 2)))
	hexbin "00000000 00000000 ${_l}000000 ${_l}000000 $1"
}
PCAP_HDR="d4c3b2a1 0200 0400 00000000 00000000 ffff0000 01000000"
# What tcpdump -i lo records on Linux: all-zero addresses, partial TCP
# checksums.  A data segment (NOP, NOP, timestamp), a SYN (MSS, SACK
# permitted, timestamp, NOP, window scale), an ARP frame, a RST without
# options, a UDP datagram without a marker.
LO_DATA="000000000000 000000000000 0800 450000460f85400040062d2b7f0000017f000001
97b61f9000000001000000018018003ffe2800000101080a5215a10a05014311
474554202f20485454502f312e310d0a0d0a"
LO_SYN="000000000000 000000000000 0800 4500003c0f86400040062d347f0000017f000001
97b61f900000000000000000a002faf0fe300000020405b40402080a5215a10a0000000001030307"
LO_ARP="000000000000 000000000000 0806 0001080006040001 0000000000000000000000000000000000000000"
LO_RST="000000000000 000000000000 0800 450000280f87400040062d477f0000017f000001
97b61f90000000020000000050040000fe140000"
LO_UDP="000000000000 000000000000 0800 450000210f88400040112d427f0000017f000001
a0001f90000d123468656c6c6f"
{
	hexbin "$PCAP_HDR"
	for f in "$LO_DATA" "$LO_SYN" "$LO_ARP" "$LO_RST" "$LO_UDP"; do
		pcap_rec "$f"
	done
} >"$TMPDIR/lo.pcap"
t_expect_eq "replay: the crafted loopback trace has 5 frames" 5 \
    "$("$TCPDUMP" -nr "$TMPDIR/lo.pcap" 2>/dev/null | wc -l | tr -d ' ')"
"$GEN" --replay "$TMPDIR/lo.pcap" --count 8 --out "$TMPDIR/rp.pcap" \
    2>"$TMPDIR/rp.err"
t_expect_eq "replay: exit 0" 0 $?
t_check "replay: says it skipped the ARP frame" \
    grep -q "skipped 1 of 5 frames (not IPv4 TCP or UDP" "$TMPDIR/rp.err"
t_check "replay: 8 frames, numbered 0..7 in order (the trace twice)" \
    "$CHK" --quiet --expect 8 "$TMPDIR/rp.pcap"
"$TCPDUMP" -e -vv -nr "$TMPDIR/rp.pcap" >"$TMPDIR/rp.txt" 2>/dev/null
t_expect_eq "replay: every TCP checksum is recomputed and correct" 6 \
    "$(grep -c 'cksum 0x[0-9a-f]* (correct)' "$TMPDIR/rp.txt")"
t_expect_eq "replay: every UDP checksum is recomputed and correct" 2 \
    "$(grep -c 'udp sum ok' "$TMPDIR/rp.txt")"
t_expect_eq "replay: no wrong IPv4 header checksum" 0 \
    "$(grep -c -e 'bad cksum' -e 'incorrect' "$TMPDIR/rp.txt")"
t_expect_eq "replay: all-zero addresses become the default ones" 8 \
    "$(grep -c '^[0-9:.]* 02:00:00:00:00:01 > 02:00:00:00:00:02' "$TMPDIR/rp.txt")"
t_expect_eq "replay: the SYN keeps its MSS and window scale" 2 \
    "$(grep -c 'Flags \[S\].*options \[exp-534c.*wscale 7\]' "$TMPDIR/rp.txt")"
# Record sizes: data 84 (timestamp replaced, same length), SYN 74, RST
# 54 + 12 (option inserted), UDP 47 + 8 (marker inserted).
t_expect_eq "replay: frame lengths 84 74 66 55" "84 74 66 55 84 74 66 55" \
    "$(sed -n 's/.*ethertype IPv4 (0x0800), length \([0-9]*\):.*/\1/p' "$TMPDIR/rp.txt" | tr '\n' ' ' | sed 's/ $//')"
# Data segment: file offset 24 + 16 = 40; TCP options at frame offset
# 54, payload at 66 unchanged.
t_expect_eq "replay: the marker is the data segment's first TCP option" \
    "SLSQ" "$(tail -c +$((40 + 58 + 1)) "$TMPDIR/rp.pcap" | head -c 4)"
t_expect_eq "replay: the data segment's payload is unchanged" \
    "GET / HTTP/1.1" "$(tail -c +$((40 + 66 + 1)) "$TMPDIR/rp.pcap" | head -c 14)"
# Our own frames already carry a marker: replaying them is the identity.
for t in fixed64 random1518 slammer http; do
	"$GEN" --replay "$TMPDIR/$t.pcap" --count $N --out "$TMPDIR/$t.rp" \
	    2>/dev/null
	t_check "replay: $t frames come back byte for byte" \
	    cmp "$TMPDIR/$t.pcap" "$TMPDIR/$t.rp"
done
"$GEN" --replay "$TMPDIR/http.pcap" --count 250 --seq-start 1000 \
    --out "$TMPDIR/http3.rp" 2>/dev/null
t_expect_eq "replay: --count 250 loops over 100 frames, from --seq-start" \
    "250 1000 1249" "$(field "$TMPDIR/http3.rp" distinct) $(field "$TMPDIR/http3.rp" first) $(field "$TMPDIR/http3.rp" last)"
"$GEN" --replay "$TMPDIR/http.pcap" --count 10 --erspan 3 \
    --out "$TMPDIR/http-es.rp" 2>/dev/null
t_check "replay: --erspan 3 wraps the replayed frames" \
    "$CHK" --quiet --expect 10 "$TMPDIR/http-es.rp"

# Bad traces: a clear error, exit 1.
replay_err() {	# replay_err DESCRIPTION EXPECTED-TEXT FILE
	"$GEN" --replay "$3" --count 1 --out "$TMPDIR/x.pcap" 2>"$TMPDIR/rperr"
	_rc=$?
	if [ "$_rc" -eq 1 ] && grep -q -- "$2" "$TMPDIR/rperr"; then
		t_ok "$1"
	else
		t_fail "$1: exit $_rc, stderr: $(head -2 "$TMPDIR/rperr")"
	fi
}
replay_err "replay: missing file" "cannot open $TMPDIR/none.pcap" \
    "$TMPDIR/none.pcap"
printf 'not a capture file, not at all\n' >"$TMPDIR/junk2.pcap"
replay_err "replay: not a pcap file" "not a pcap file" "$TMPDIR/junk2.pcap"
{ hexbin "$PCAP_HDR"; pcap_rec "$LO_ARP"; } >"$TMPDIR/arp.pcap"
replay_err "replay: nothing that can carry a number" \
    "none of its 1 frames is IPv4 TCP or UDP" "$TMPDIR/arp.pcap"
{ hexbin "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 65000000"
  pcap_rec "$LO_ARP"; } >"$TMPDIR/raw.pcap"
replay_err "replay: not Ethernet" "link type 101, replay needs Ethernet" \
    "$TMPDIR/raw.pcap"
head -c $((24 + 16 + 40)) "$TMPDIR/lo.pcap" >"$TMPDIR/lo-cut.pcap"
replay_err "replay: a file cut inside a frame" "truncated in frame 1" \
    "$TMPDIR/lo-cut.pcap"
head -c $((24 + 16 + 84 + 7)) "$TMPDIR/lo.pcap" >"$TMPDIR/lo-cut2.pcap"
replay_err "replay: a file cut inside a record header" \
    "truncated record header after frame 1" "$TMPDIR/lo-cut2.pcap"
# The data segment cut to 42 of its 84 bytes (0x2a, 0x54).
{ hexbin "$PCAP_HDR 00000000 00000000 2a000000 54000000"
  printf '%s' "$LO_DATA" | tr -d ' \n' | head -c 84 | { hexbin "$(cat)"; }
} >"$TMPDIR/snap.pcap"
replay_err "replay: frames cut by a snapshot length" \
    "frame 1 was cut to 42 of 84 bytes" "$TMPDIR/snap.pcap"
if command -v editcap >/dev/null 2>&1 &&
    editcap -F pcapng "$TMPDIR/lo.pcap" "$TMPDIR/lo.pcapng" 2>/dev/null; then
	replay_err "replay: pcapng is named" "pcapng: convert it" \
	    "$TMPDIR/lo.pcapng"
else
	t_skip "replay: pcapng is named" "editcap is not installed"
fi

# --- bad usage ---------------------------------------------------------------
# usage_err DESCRIPTION EXPECTED-TEXT PROGRAM ARG...: exits 2 and says so.
usage_err() {
	_desc=$1
	_text=$2
	shift 2
	"$@" >/dev/null 2>"$TMPDIR/usage.err"
	_rc=$?
	if [ "$_rc" -eq 2 ] && grep -q -- "$_text" "$TMPDIR/usage.err"; then
		t_ok "$_desc"
	else
		t_fail "$_desc: exit $_rc, stderr: $(head -2 "$TMPDIR/usage.err")"
	fi
}
usage_err "gen: no arguments" "--type is required" "$GEN"
usage_err "gen: --type and --replay" "not both" \
    "$GEN" --type fixed64 --replay "$TMPDIR/lo.pcap" --count 1 --out "$TMPDIR/x.pcap"
usage_err "gen: --threads 0" "invalid --threads '0' (1-64)" \
    "$GEN" --type fixed64 --threads 0 --count 1 --iface lo
usage_err "gen: --threads with --out" "--threads applies to --iface only" \
    "$GEN" --type fixed64 --threads 2 --count 1 --out "$TMPDIR/x.pcap"
usage_err "gen: --vlan with --replay" "--vlan does not apply to --replay" \
    "$GEN" --replay "$TMPDIR/lo.pcap" --vlan 5 --count 1 --out "$TMPDIR/x.pcap"
usage_err "gen: unknown type" "unknown --type 'jumbo'" \
    "$GEN" --type jumbo --count 1 --out "$TMPDIR/x.pcap"
usage_err "gen: --count 0" "at least 1" \
    "$GEN" --type fixed64 --count 0 --out "$TMPDIR/x.pcap"
usage_err "gen: --count abc" "invalid --count 'abc'" \
    "$GEN" --type fixed64 --count abc --out "$TMPDIR/x.pcap"
usage_err "gen: --count -1" "invalid --count '-1'" \
    "$GEN" --type fixed64 --count -1 --out "$TMPDIR/x.pcap"
usage_err "gen: --rate 5x" "invalid --rate '5x'" \
    "$GEN" --type fixed64 --count 1 --rate 5x --out "$TMPDIR/x.pcap"
usage_err "gen: both --out and --iface" "exactly one of --out and --iface" \
    "$GEN" --type fixed64 --count 1 --out "$TMPDIR/x.pcap" --iface lo
usage_err "gen: neither --out nor --iface" "exactly one of --out and --iface" \
    "$GEN" --type fixed64 --count 1
usage_err "gen: --out without --count" "--out needs --count" \
    "$GEN" --type fixed64 --out "$TMPDIR/x.pcap"
usage_err "gen: --iface unbounded" "needs --count or --duration" \
    "$GEN" --type fixed64 --iface lo
usage_err "gen: --duration 0" "invalid --duration" \
    "$GEN" --type fixed64 --duration 0 --iface lo
usage_err "gen: bad MAC" "invalid --src-mac" \
    "$GEN" --type fixed64 --count 1 --src-mac 02:00:00:00:00 --out "$TMPDIR/x.pcap"
usage_err "gen: bad VLAN" "invalid --vlan '4096'" \
    "$GEN" --type fixed64 --count 1 --vlan 4096 --out "$TMPDIR/x.pcap"
usage_err "gen: sequence space exceeded" "32-bit sequence space" \
    "$GEN" --type fixed64 --count 2 --seq-start 4294967295 --out "$TMPDIR/x.pcap"
usage_err "gen: --erspan 4" "invalid --erspan '4'" \
    "$GEN" --type fixed64 --count 1 --erspan 4 --out "$TMPDIR/x.pcap"
usage_err "gen: --erspan-session 1024" "invalid --erspan-session '1024'" \
    "$GEN" --type fixed64 --count 1 --erspan 2 --erspan-session 1024 \
    --out "$TMPDIR/x.pcap"
usage_err "gen: --erspan-session alone" "needs --erspan" \
    "$GEN" --type fixed64 --count 1 --erspan-session 5 --out "$TMPDIR/x.pcap"
usage_err "gen: unknown option" "--bogus" \
    "$GEN" --bogus
usage_err "gen: stray argument" "unexpected argument 'extra'" \
    "$GEN" --type fixed64 --count 1 --out "$TMPDIR/x.pcap" extra
"$GEN" --type fixed64 --count 1 --out "$TMPDIR/no/such/dir.pcap" 2>"$TMPDIR/x.err"
t_expect_eq "gen: unwritable --out exits 1" 1 $?
t_check "gen: unwritable --out is explained" \
    grep -q "cannot create $TMPDIR/no/such/dir.pcap" "$TMPDIR/x.err"
"$GEN" --type fixed64 --count 1 --iface sluice-nonexistent0 2>"$TMPDIR/x.err"
t_expect_eq "gen: unknown interface exits 1" 1 $?
t_check "gen: unknown interface is named" \
    grep -q "interface sluice-nonexistent0" "$TMPDIR/x.err"

usage_err "seqcheck: no file" "no capture file given" "$CHK"
usage_err "seqcheck: --expect x" "invalid --expect 'x'" \
    "$CHK" --expect x "$TMPDIR/ten.pcap"
usage_err "seqcheck: --expect 0" "invalid --expect '0'" \
    "$CHK" --expect 0 "$TMPDIR/ten.pcap"
usage_err "seqcheck: two files" "one capture file only" \
    "$CHK" "$TMPDIR/ten.pcap" "$TMPDIR/ten.pcap"
usage_err "seqcheck: missing file" "$TMPDIR/nonexistent.pcap" \
    "$CHK" "$TMPDIR/nonexistent.pcap"
printf 'this is not a capture file at all\n' >"$TMPDIR/junk.pcap"
usage_err "seqcheck: not a capture file" "unknown file format" \
    "$CHK" "$TMPDIR/junk.pcap"

usage_err "slowsink: no --rate" "--rate is required" "$SINK"
usage_err "slowsink: --rate 0" "invalid --rate '0'" "$SINK" --rate 0
usage_err "slowsink: --chunk 2M" "invalid --chunk '2M'" \
    "$SINK" --rate 1M --chunk 2M

# --- slowsink -----------------------------------------------------------------
"$SINK" --rate 1M --out "$TMPDIR/sunk.pcap" <"$TMPDIR/random1518.pcap" \
    2>"$TMPDIR/sink.err"
t_expect_eq "slowsink: exit 0 at end of input" 0 $?
t_check "slowsink: --out gets every byte" \
    cmp "$TMPDIR/random1518.pcap" "$TMPDIR/sunk.pcap"
t_check "slowsink: reports the bytes consumed" \
    grep -q "consumed $(wc -c <"$TMPDIR/random1518.pcap" | tr -d ' ') bytes" \
    "$TMPDIR/sink.err"
"$GEN" --type fixed1518 --count 100000 --out - 2>/dev/null |
    "$SINK" --rate 100k --max-seconds 0.3 2>"$TMPDIR/sink.err"
t_expect_eq "slowsink: exit 3 when --max-seconds stops it" 3 $?
t_check "slowsink: says the time limit was reached" \
    grep -q "time limit reached" "$TMPDIR/sink.err"

t_done
