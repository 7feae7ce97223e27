#!/bin/sh
#
# sluice-gen on a veth pair with several sending threads (--threads):
# every number is sent exactly once, by one of the senders, the report
# adds them up, and a replayed trace is numbered the same way.  Exact
# counts only, at a rate a capture keeps up with; never a speed.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"

netns_live_setup

# counts FILE N SEQ0: frames, unmarked, missing and duplicates when
# frames SEQ0..SEQ0+N-1 are expected.  Senders interleave, so the order
# is not checked ("first" and "last" are in file order, not lowest and
# highest); none missing from the range and as many frames as numbers
# means each number arrived exactly once.
counts() {
	"$CHK" --expect "$2" --seq-start "$3" "$1" 2>/dev/null | awk -F': ' '
	    $1 == "frames" { f = $2 } $1 == "unmarked" { u = $2 }
	    $1 == "missing" { m = $2 } $1 == "duplicates" { d = $2 }
	    END { print f + 0, u + 0, m + 0, d + 0 }'
}

# send NAME N GEN-ARGS...: capture while sluice-gen sends N frames, stop
# once the veth has counted them; the capture is $TMPDIR/NAME.pcap.
send() {
	_name=$1
	_n=$2
	shift 2
	netns_bg "$NS_B" "$TMPDIR/$_name.out" "$TMPDIR/$_name.err" \
	    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 16384 -w "$TMPDIR/$_name.pcap"
	_pid=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/$_name.err" "listening on" 100; then
		t_fail "$_name: tcpdump did not start: $(head -3 "$TMPDIR/$_name.err")"
		return 1
	fi
	_rx0=$(netns_rx_packets)
	netns_exec "$NS_A" "$GEN" "$@" --count "$_n" --rate 20000 \
	    --iface "$VETH_A" 2>"$TMPDIR/$_name.gen"
	_rc=$?
	_i=0
	while [ $_i -lt 50 ]; do
		[ $(($(netns_rx_packets) - _rx0)) -ge "$_n" ] && break
		sleep 0.05
		_i=$((_i + 1))
	done
	netns_stop "$_pid" INT 100
	return $_rc
}

N=3001
if send threads $N --type fixed64 --threads 3 --seq-start 10; then
	t_ok "--threads 3: exit 0"
else
	t_fail "--threads 3: $(cat "$TMPDIR/threads.gen")"
fi
t_check "--threads 3: one report for all senders" \
    grep -q "^sluice-gen: sent $N frames (.*) on $VETH_A in .* by 3 senders\$" \
    "$TMPDIR/threads.gen"
t_expect_eq "--threads 3: every number of 10..3010 once, nothing else" \
    "$N 0 0 0" "$(counts "$TMPDIR/threads.pcap" $N 10)"

# More senders than frames: the idle ones stay out.
if send few 2 --type http --threads 4; then
	t_ok "--threads 4 --count 2: exit 0"
else
	t_fail "--threads 4 --count 2: $(cat "$TMPDIR/few.gen")"
fi
t_expect_eq "--threads 4 --count 2: frames 0 and 1, once each" "2 0 0 0" \
    "$(counts "$TMPDIR/few.pcap" 2 0)"

# A replayed trace, by two senders.
"$GEN" --type http --count 7 --out "$TMPDIR/seven.pcap" 2>/dev/null
if send replay 1000 --replay "$TMPDIR/seven.pcap" --threads 2; then
	t_ok "--replay --threads 2: exit 0"
else
	t_fail "--replay --threads 2: $(cat "$TMPDIR/replay.gen")"
fi
t_expect_eq "--replay --threads 2: every number of 0..999 once" \
    "1000 0 0 0" "$(counts "$TMPDIR/replay.pcap" 1000 0)"
t_done
