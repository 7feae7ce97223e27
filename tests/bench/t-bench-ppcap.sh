#!/bin/sh
#
# bench/ppcap.c, the bench's per-packet compressing capture (the
# perpacket-zlib and perpacket-lzo configurations): what it keeps must be
# exactly what was sent, or the bench's loss figures for it are wrong.
# For each codec it captures numbered frames on a veth pair, "ppcap -d"
# turns its file back into a pcap file that must hold every frame in
# order, byte-identical to what sluice-gen writes with the same options;
# its counts at SIGINT must add up.  Bad input to -d and bad usage must
# fail with a message.  Speed is never checked.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"

need_root
need_cmd ip

N=600			# frames of each type
TYPES="fixed1518 http"	# both compress, packet by packet

PP=$TMPDIR/ppcap
if build_c "$PP" "$SLUICE_SRCDIR/bench/ppcap.c" -lz -llzo2 2>"$TMPDIR/cc.err"; then
	t_ok "bench/ppcap.c builds"
else
	t_fail "bench/ppcap.c builds: $(head -5 "$TMPDIR/cc.err")"
	t_done
fi

# Offline: usage and bad input.
"$PP" >/dev/null 2>"$TMPDIR/usage.err"
t_expect_eq "no arguments: exit 2" 2 $?
t_check "no arguments: usage on stderr" grep -q '^Usage: ppcap' "$TMPDIR/usage.err"
"$PP" -i lo -z lz77 -w /dev/null 2>"$TMPDIR/codec.err"
t_expect_eq "unknown codec: exit 2" 2 $?
t_check "unknown codec: says which" grep -q 'unknown codec lz77' "$TMPDIR/codec.err"
printf 'not a capture at all, longer than a header\n' >"$TMPDIR/junk"
"$PP" -d "$TMPDIR/junk" >/dev/null 2>"$TMPDIR/junk.err"
t_expect_eq "-d on a non-ppcap file: exit 1" 1 $?
t_check "-d on a non-ppcap file: says so" grep -q 'not a ppcap file' "$TMPDIR/junk.err"

netns_live_setup

seq=0
set --
for t in $TYPES; do
	"$GEN" --type "$t" --count "$N" --seq-start "$seq" --seed 3 \
	    --out "$TMPDIR/ref-$seq.pcap" 2>/dev/null ||
	    { t_fail "write reference $t"; t_done; }
	set -- "$@" --compare "$TMPDIR/ref-$seq.pcap"
	seq=$((seq + N))
done
total=$seq

for codec in zlib lzo; do
	rx0=$(netns_rx_packets)
	netns_bg "$NS_B" /dev/null "$TMPDIR/pp-$codec.err" "$PP" -i "$VETH_B" \
	    -s 2048 -B 16384 -z "$codec" -w "$TMPDIR/cap-$codec.pp"
	pp=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/pp-$codec.err" "listening on" 100; then
		t_fail "$codec: ppcap did not start: $(head -3 "$TMPDIR/pp-$codec.err")"
		continue
	fi
	seq=0
	for t in $TYPES; do
		netns_exec "$NS_A" "$GEN" --type "$t" --count "$N" \
		    --seq-start "$seq" --seed 3 --rate 20000 --iface "$VETH_A" \
		    2>/dev/null || t_fail "$codec: send $t frames"
		seq=$((seq + N))
	done
	# Bounded: every frame received, then every frame handed to ppcap
	# (its SIGUSR1 counts), before it is stopped.
	i=0
	while [ $i -lt 50 ] && [ "$(($(netns_rx_packets) - rx0))" -lt "$total" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 100 ]; do
		kill -USR1 "$pp" 2>/dev/null
		sleep 0.1
		grep -q "^ppcap: $total packets captured" "$TMPDIR/pp-$codec.err" && break
		i=$((i + 1))
	done
	netns_stop "$pp" INT 100
	t_expect_eq "$codec: ppcap exits 0 on SIGINT" 0 "$NETNS_STATUS"
	t_check "$codec: reports $total packets captured" \
	    grep -q "^$total packets captured" "$TMPDIR/pp-$codec.err"
	t_check "$codec: reports 0 packets dropped by kernel" \
	    grep -q "^0 packets dropped by kernel" "$TMPDIR/pp-$codec.err"
	sz=$(stat -c %s "$TMPDIR/cap-$codec.pp")
	raw=$(cat "$TMPDIR"/ref-*.pcap | wc -c)
	t_check "$codec: the file is compressed ($sz < $raw bytes)" test "$sz" -lt "$raw"
	"$PP" -d "$TMPDIR/cap-$codec.pp" >"$TMPDIR/dec-$codec.pcap" 2>"$TMPDIR/dec.err"
	t_expect_eq "$codec: -d exits 0" 0 $?
	if "$CHK" --expect "$total" "$@" "$TMPDIR/dec-$codec.pcap" \
	    >"$TMPDIR/chk.out" 2>&1; then
		t_ok "$codec: frames 0..$((total - 1)) in order, byte-identical"
	else
		t_fail "$codec: frames 0..$((total - 1)) in order, byte-identical"
		sed 's/^/#   /' "$TMPDIR/chk.out" | head -20
	fi
done

# A file cut short in the middle of a record is an error, not a short
# capture.
head -c "$(($(stat -c %s "$TMPDIR/cap-zlib.pp") - 100))" \
    "$TMPDIR/cap-zlib.pp" >"$TMPDIR/cut.pp"
"$PP" -d "$TMPDIR/cut.pp" >/dev/null 2>"$TMPDIR/cut.err"
t_expect_eq "-d on a truncated file: exit 1" 1 $?
t_check "-d on a truncated file: says after how many packets" \
    grep -q 'bad record after [0-9]* packets\|truncated after [0-9]* packets' "$TMPDIR/cut.err"

netns_teardown_check
t_done
