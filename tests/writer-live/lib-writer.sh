# shellcheck shell=sh disable=SC2034 # variables are for the sourcing script
# tests/writer-live/lib-writer.sh -- helpers for the writer thread's live
# tests; source after tests/lib.sh and tests/live/netns.sh.
#
#	figure WHAT FILE	the number before "packet(s) WHAT" in
#				tcpdump's stderr FILE (last one), or empty
#	ring_figure FILE	"HW SIZE" of "ring high-water mark HW of
#				SIZE bytes"
#	rx_count		frames received so far on $VETH_B
#	wait_rx FROM N		wait (at most 10 s) until VETH_B has
#				received N frames since the count FROM
#	count_frames FILE	frames libpcap reads from FILE (as counted
#				by sluice-seqcheck, $CHK)

figure() {
	sed -n "s/^\([0-9][0-9]*\) packets\{0,1\} $1\$/\1/p" "$2" | tail -1
}

ring_figure() {
	sed -n 's/^ring high-water mark \([0-9]*\) of \([0-9]*\) bytes$/\1 \2/p' "$1" |
	    tail -1
}

rx_count() {
	netns_rx_packets
}

# send_frames N [TYPE]: send N numbered frames (default http) at 20000
# frames/s and wait (bounded) until the capture side has received them.
send_frames() {
	_sf_rx0=$(rx_count)
	netns_exec "$NS_A" "$GEN" --type "${2:-http}" --count "$1" \
	    --rate 20000 --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
	    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
	wait_rx "$_sf_rx0" "$1" ||
	    t_fail "the veth did not receive $1 frames"
}

wait_rx() {
	_wr_i=0
	while [ $_wr_i -lt 200 ]; do
		[ $(($(rx_count) - $1)) -ge "$2" ] && return 0
		sleep 0.05
		_wr_i=$((_wr_i + 1))
	done
	return 1
}

count_frames() {
	"$CHK" "$1" 2>/dev/null | sed -n 's/^frames: //p'
}

# start_tcpdump NAME ARGS...: tcpdump in NS_B on VETH_B, stdout and
# stderr to $TMPDIR/NAME.out and .err; sets TD; fails the script if it
# does not start listening.
start_tcpdump() {
	_st_name=$1
	shift
	netns_bg "$NS_B" "$TMPDIR/$_st_name.out" "$TMPDIR/$_st_name.err" \
	    "$TCPDUMP" -n -i "$VETH_B" "$@"
	TD=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/$_st_name.err" "listening on" 100; then
		t_fail "$_st_name: tcpdump did not start: $(head -3 "$TMPDIR/$_st_name.err")"
		t_done
	fi
}
