#!/bin/sh
# t-veth-capture.sh -- live capture over a veth pair, counted exactly.
#
# tcpdump captures on one end of a veth pair in its own namespace while
# sluice-gen sends numbered frames of three types, and one type wrapped in
# ERSPAN type III, from the other end.
# Then the file must hold exactly the frames sent, in order, byte for byte
# equal to what sluice-gen writes to a file with the same options, and
# tcpdump must exit 0 and report that many packets captured, none dropped.
#
# The rate is modest and the tcpdump buffer (-B) holds every frame sent,
# so a loss here is a bug, not a slow machine.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"

need_root
need_cmd ip

N=${SLUICE_VETH_N:-1000}	# frames of each type
RATE=20000			# frames per second
# TYPE or TYPE:ERSPAN-TYPE
TYPES="fixed64 random1518 http slammer:3"

build_traffic_tools

if ! netns_setup; then
	t_fail "create namespaces and veth pair"
	t_done
fi
t_ok "namespaces $NS_A, $NS_B joined by $VETH_A-$VETH_B"

# The reference: the same frames written to files, one per type.
# The --compare arguments for seqcheck collect in "$@".
set --
seq=0
# gen_args TYPE[:ERSPAN]: the generator options for one item of TYPES.
gen_args() {
	case $1 in
	*:*)	echo "--type ${1%%:*} --erspan ${1#*:}" ;;
	*)	echo "--type $1" ;;
	esac
}

for t in $TYPES; do
	# shellcheck disable=SC2046
	if ! "$GEN" $(gen_args "$t") --count "$N" --seq-start "$seq" --seed 42 \
	    --out "$TMPDIR/ref-$seq.pcap" 2>"$TMPDIR/gen.err"; then
		t_fail "write reference $t: $(cat "$TMPDIR/gen.err")"
		t_done
	fi
	set -- "$@" --compare "$TMPDIR/ref-$seq.pcap"
	seq=$((seq + N))
done
total=$seq

# -s covers the largest frame, -B (KiB) holds every frame of the run.
netns_bg "$NS_B" "$TMPDIR/tcpdump.out" "$TMPDIR/tcpdump.err" \
    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 16384 -w "$TMPDIR/cap.pcap"
td=$NETNS_BG_PID
if netns_wait_for "$TMPDIR/tcpdump.err" "listening on" 100; then
	t_ok "tcpdump is listening on $VETH_B"
else
	t_fail "tcpdump did not start: $(head -3 "$TMPDIR/tcpdump.err")"
	t_done
fi

seq=0
for t in $TYPES; do
	# shellcheck disable=SC2046
	if netns_exec "$NS_A" "$GEN" $(gen_args "$t") --count "$N" \
	    --seq-start "$seq" --seed 42 --rate $RATE --iface "$VETH_A" \
	    2>"$TMPDIR/send-$seq.err"; then
		t_check "sent $N $t frames" \
		    grep -q "sent $N frames" "$TMPDIR/send-$seq.err"
	else
		t_fail "send $t frames: $(cat "$TMPDIR/send-$seq.err")"
	fi
	seq=$((seq + N))
done

# The sender's last frame is on its way through the receiving softirq
# when sendmmsg() returns; wait (bounded) until the kernel has counted
# every frame as received on the capture side before stopping tcpdump.
i=0
while [ $i -lt 50 ]; do
	rx=$(netns_rx_packets)
	if [ -n "$rx" ] && [ "$rx" -ge "$total" ]; then
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
t_expect_eq "$VETH_B received $total frames" "$total" "$rx"
# Wait (bounded) until tcpdump has processed every frame: SIGUSR1 makes it
# print "tcpdump: N packets captured, ..." on stderr.  Stopping it
# earlier would leave frames unread in its ring.
i=0
while [ $i -lt 100 ]; do
	kill -USR1 "$td" 2>/dev/null
	sleep 0.1
	if grep -q "^tcpdump: $total packets captured" "$TMPDIR/tcpdump.err"; then
		break
	fi
	i=$((i + 1))
done

netns_stop "$td" INT 100
t_expect_eq "tcpdump exits 0 on SIGINT" 0 "$NETNS_STATUS"
t_check "tcpdump reports $total packets captured" \
    grep -q "^$total packets captured" "$TMPDIR/tcpdump.err"
t_check "tcpdump reports 0 packets dropped by kernel" \
    grep -q "^0 packets dropped by kernel" "$TMPDIR/tcpdump.err"

if "$CHK" --expect "$total" "$@" "$TMPDIR/cap.pcap" \
    >"$TMPDIR/chk.out" 2>"$TMPDIR/chk.err"; then
	t_ok "capture holds frames 0..$((total - 1)) in order, byte-identical"
else
	t_fail "capture holds frames 0..$((total - 1)) in order, byte-identical"
	sed 's/^/#   /' "$TMPDIR/chk.out" "$TMPDIR/chk.err" | head -30
fi

netns_teardown_check

t_done
