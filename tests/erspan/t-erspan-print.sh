#!/bin/sh
# tcpdump's ERSPAN printer (print-erspan.c): exact output for each type
# and each malformation, field values against tshark, the sample
# captures, and no failure on frames cut at every length.
. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd tshark

src=$SLUICE_SRCDIR
data=$src/../shared/testdata/erspan
gen=$TMPDIR/erspan-pcap
if build_c "$gen" "$src/tests/gen/erspan-pcap.c" \
    "$src/tests/gen/erspan-craft.c"; then
	t_ok "build erspan-pcap"
else
	t_fail "build erspan-pcap"
	t_done
fi

p=$TMPDIR/print.pcap
t_check "craft one frame per type and malformation" "$gen" "$p" \
    t1 \
    t2,sid=7,vlan=100,cos=5,en=2,tbit,index=12345,key \
    t3,sid=1023,vlan=4095,cos=7,en=3,ts=1000,sgt=77,hwid=5,d,gra=1,seq,port=443 \
    t3,sid=9,o,pid=3,udp,port=5000,v6,tags=1,vid=5 \
    t3,ft=2 t2,badver t3,badver t2,sid=3,cut=46 t3,o,cut=60

# expect_output DESCRIPTION EXPECTED-FILE TCPDUMP-ARGS...
expect_output() {
	_desc=$1
	_exp=$2
	shift 2
	if ! "$TCPDUMP" "$@" >"$TMPDIR/out.txt" 2>"$TMPDIR/err.txt"; then
		t_fail "$_desc: tcpdump failed: $(cat "$TMPDIR/err.txt")"
	elif cmp -s "$_exp" "$TMPDIR/out.txt"; then
		t_ok "$_desc"
	else
		t_fail "$_desc"
		diff "$_exp" "$TMPDIR/out.txt" | head -20 | sed 's/^/#   /'
	fi
}

cat >"$TMPDIR/plain.txt" <<'OUT'
IP 10.0.0.1 > 10.0.0.2: GREv0, length 66: erspan type1: IP 192.168.0.1.1025 > 192.168.0.2.80: Flags [P.], seq 1:9, ack 0, win 8192, length 8: HTTP
IP 10.0.0.1 > 10.0.0.2: GREv0, key=0x1002, seq 2, length 82: erspan session 7 vlan 100: IP 192.168.0.1.1026 > 192.168.0.2.80: Flags [P.], seq 2:10, ack 0, win 8192, length 8: HTTP
IP 10.0.0.1 > 10.0.0.2: GREv0, seq 3, length 82: erspan session 1023 bso Bad ft Ethernet: IP 192.168.0.1.1027 > 192.168.0.2.443: Flags [P.], seq 3:11, ack 0, win 8192, length 8
IP6 2001:db8::1 > 2001:db8::2: GREv0, length 74: erspan session 9 bso Good/unknown ft Ethernet: IP 192.168.0.1.1028 > 192.168.0.2.5000: UDP, length 8
IP 10.0.0.1 > 10.0.0.2: GREv0, length 78: erspan session 0 bso Good/unknown ft IP: Frame type unknown
IP 10.0.0.1 > 10.0.0.2: GREv0, seq 6, length 78: erspan erspan-unknown-version-2
IP 10.0.0.1 > 10.0.0.2: GREv0, length 78: erspan erspan-unknown-version-1
IP 10.0.0.1 > 10.0.0.2: GREv0, seq 8, length 78: erspan session 3 [|erspan]
IP 10.0.0.1 > 10.0.0.2: GREv0, length 86: erspan session 0 bso Good/unknown ft Ethernet:  [|ether]
OUT
expect_output "tcpdump -n: each type and malformation" "$TMPDIR/plain.txt" \
    -t -n -r "$p"

cat >"$TMPDIR/verbose.txt" <<'OUT'
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 86)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [none], length 66
	erspan type1: IP (tos 0x0, ttl 64, id 1, offset 0, flags [none], proto TCP (6), length 48)
    192.168.0.1.1025 > 192.168.0.2.80: Flags [P.], cksum 0x0000 (incorrect -> 0x90b2), seq 1:9, ack 0, win 8192, length 8: HTTP
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 102)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [key present, sequence# present], key=0x1002, seq 2, length 82
	erspan type2 session 7 vlan 100 cos 5 truncated index 12345: IP (tos 0x0, ttl 64, id 2, offset 0, flags [none], proto TCP (6), length 48)
    192.168.0.1.1026 > 192.168.0.2.80: Flags [P.], cksum 0x0000 (incorrect -> 0x90af), seq 2:10, ack 0, win 8192, length 8: HTTP
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 102)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [sequence# present], seq 3, length 82
	erspan type3 session 1023 bso Bad cos 7 ft Ethernet: IP (tos 0x0, ttl 64, id 3, offset 0, flags [none], proto TCP (6), length 48)
    192.168.0.1.1027 > 192.168.0.2.443: Flags [P.], cksum 0x0000 (incorrect -> 0x8f41), seq 3:11, ack 0, win 8192, length 8
IP6 (hlim 64, next-header GRE (47), payload length 74) 2001:db8::1 > 2001:db8::2: GREv0, Flags [none], length 74
	erspan type3 session 9 bso Good/unknown cos 0 ft Ethernet: IP (tos 0x0, ttl 64, id 4, offset 0, flags [none], proto UDP (17), length 36)
    192.168.0.1.1028 > 192.168.0.2.5000: UDP, length 8
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 98)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [none], length 78
	erspan type3 session 0 bso Good/unknown cos 0 ft IP: Frame type unknown
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 98)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [sequence# present], seq 6, length 78
	erspan erspan-unknown-version-2
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 98)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [none], length 78
	erspan erspan-unknown-version-1
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 98)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [sequence# present], seq 8, length 78
	erspan type2 session 3 cos 0 [|erspan]
IP (tos 0x0, ttl 64, id 4660, offset 0, flags [DF], proto GRE (47), length 106)
    10.0.0.1 > 10.0.0.2: GREv0, Flags [none], length 86
	erspan type3 session 0 bso Good/unknown cos 0 ft Ethernet:  [|ether]
OUT
expect_output "tcpdump -n -v: each type and malformation" "$TMPDIR/verbose.txt" \
    -t -n -v -r "$p"

# Field values printed with -v against tshark's, frame by frame (the
# valid type II and III frames 2-4).  The format is the one of
# tcpdump's development branch, which prints the VLAN of type II only
# when it is a tag (encapsulation 1 or 2), and of type III nothing past
# the class of service but the frame type.
"$TCPDUMP" -t -n -v -r "$p" 2>/dev/null | grep 'erspan' >"$TMPDIR/lines.txt"
tshark -r "$p" -Y 'frame.number >= 2 && frame.number <= 4' -T fields \
    -e frame.number -e erspan.version -e erspan.spanid -e erspan.vlan \
    -e erspan.cos -e erspan.index 2>/dev/null >"$TMPDIR/ts.txt"
n=0
while read -r num ver sid vlan cos index; do
	n=$((n + 1))
	line=$(sed -n "${num}p" "$TMPDIR/lines.txt")
	if [ "$ver" = 1 ]; then
		want="erspan type2 session $sid vlan $vlan cos $cos *index $index: "
	else
		want="erspan type3 session $sid bso * cos $cos ft Ethernet: "
	fi
	# shellcheck disable=SC2254
	case $line in
	*$want*) t_ok "frame $num: fields as tshark decodes them" ;;
	*)	t_fail "frame $num: '$line' does not match '$want'" ;;
	esac
done <"$TMPDIR/ts.txt"
t_expect_eq "three frames compared with tshark" 3 "$n"

# Frames cut at every length, and the broken set: tcpdump never fails,
# and prints one line per cut frame.
specs=
for len in $(seq 14 1 130); do
	specs="$specs t2,csum,key,cut=$len t3,o,v6,cut=$len t1,tags=2,cut=$len"
done
# shellcheck disable=SC2086
t_check "craft frames cut at every length" "$gen" "$TMPDIR/cut.pcap" $specs
t_check "craft the broken set" "$gen" "$TMPDIR/broken.pcap" broken
for f in cut broken; do
	for v in "" -v -vvv -e; do
		# shellcheck disable=SC2086
		if "$TCPDUMP" -t -n $v -r "$TMPDIR/$f.pcap" >/dev/null 2>&1; then
			t_ok "tcpdump -n $v: $f frames"
		else
			t_fail "tcpdump -n $v: $f frames: exit status $?"
		fi
	done
done
t_expect_eq "one line per cut frame" 351 \
    "$("$TCPDUMP" -t -n -r "$TMPDIR/cut.pcap" 2>/dev/null | wc -l | tr -d ' ')"
# Word 0 complete, rest of the header cut: 4 type II cuts (54-57) and
# 16 type III cuts (62-77, with the platform subheader; the frame type
# is printed once word 2 is there).
t_expect_eq "cut frames: ERSPAN headers cut are reported as such" 20 \
    "$("$TCPDUMP" -t -n -r "$TMPDIR/cut.pcap" 2>/dev/null | grep -c ' erspan session [0-9]*\( bso [A-Za-z/]*\)\{0,1\}\( ft [A-Za-z]*\)\{0,1\} \[|erspan\]$')"

# The sample captures: one "erspan" line per ERSPAN packet, with
# the session IDs tshark finds.
if [ -d "$data" ]; then
	for f in "$data"/erspan-*.pcap; do
		name=$(basename "$f")
		want=$(tshark -r "$f" -Y erspan 2>/dev/null | wc -l | tr -d ' ')
		got=$("$TCPDUMP" -n -r "$f" 2>/dev/null | grep -c ': erspan \(type1\|session\)')
		t_expect_eq "$name: ERSPAN packets printed" "$want" "$got"
		want=$(tshark -r "$f" -Y erspan.spanid -T fields -e erspan.spanid \
		    2>/dev/null | tr '\n' ' ')
		got=$("$TCPDUMP" -n -r "$f" 2>/dev/null |
		    sed -n 's/.*: erspan session \([0-9]*\).*/\1/p' |
		    tr '\n' ' ')
		t_expect_eq "$name: session IDs" "$want" "$got"
	done
	got=$("$TCPDUMP" -n -r "$data/erspan-type-iii-ft-7.pcap" 2>/dev/null |
	    grep -c ': erspan session 101 bso Bad ft unknown 7: Frame type unknown$')
	t_expect_eq "erspan-type-iii-ft-7.pcap: frame type 7 not decoded as Ethernet" \
	    58 "$got"
else
	t_skip "sample captures" "$data is absent"
fi
t_done
