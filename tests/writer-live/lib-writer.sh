# shellcheck shell=sh disable=SC2034 # variables are for the sourcing script
# tests/writer-live/lib-writer.sh -- helpers for the writer thread's live
# tests; source after tests/lib.sh and tests/live/netns.sh.
#
#	figure WHAT FILE	the number before "packet(s) WHAT" in
#				tcpdump's stderr FILE (last one), or empty
#	figures FILE		sets w, d, k and c to the packets written,
#				dropped by writer (ring full), dropped by
#				kernel and captured that FILE reports
#	ring_figure FILE	"HW SIZE" of "ring high-water mark HW of
#				SIZE bytes"
#	rx_count		frames received so far on $VETH_B
#	wait_rx FROM N		wait (at most 10 s) until VETH_B has
#				received N frames since the count FROM
#	count_frames FILE	frames libpcap reads from FILE (as counted
#				by sluice-seqcheck, $CHK)
#	wait_lines FILE N	wait (at most 10 s) until FILE has N lines
#				(a missing FILE has none)
#	check_in_order DIR N FILE...
#				0 if FILE... (in DIR, in that order) hold
#				frames 0..N-1, each once, in order (a file
#				may hold none); the first bad file is
#				described on stderr

figure() {
	sed -n "s/^\([0-9][0-9]*\) packets\{0,1\} $1\$/\1/p" "$2" | tail -1
}

figures() {
	w=$(figure written "$1")
	d=$(figure "dropped by writer (ring full)" "$1")
	k=$(figure "dropped by kernel" "$1")
	c=$(figure captured "$1")
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
	    --rate "${3:-20000}" --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
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

check_in_order() {
	_ci_dir=$1
	_ci_n=$2
	shift 2
	_ci_seq=0
	for _ci_f in "$@"; do
		_ci_k=$(count_frames "$_ci_dir/$_ci_f")
		if [ -z "$_ci_k" ]; then
			echo "# $_ci_f: not a readable savefile" >&2
			return 1
		fi
		# A file can be empty: -G switches on time, not traffic.
		[ "$_ci_k" = 0 ] && continue
		if ! "$CHK" --quiet --seq-start $_ci_seq --expect "$_ci_k" \
		    "$_ci_dir/$_ci_f" >"$TMPDIR/check_in_order.out" 2>&1; then
			echo "# $_ci_f (from frame $_ci_seq):" >&2
			sed 's/^/#   /' "$TMPDIR/check_in_order.out" | head -5 >&2
			return 1
		fi
		_ci_seq=$((_ci_seq + _ci_k))
	done
	if [ "$_ci_seq" != "$_ci_n" ]; then
		echo "# the files hold $_ci_seq frames, not $_ci_n" >&2
		return 1
	fi
	return 0
}

wait_lines() {
	_wl_i=0
	while [ $_wl_i -lt 200 ]; do
		[ "$(wc -l 2>/dev/null <"$1" || echo 0)" -ge "$2" ] && return 0
		sleep 0.05
		_wl_i=$((_wl_i + 1))
	done
	return 1
}

