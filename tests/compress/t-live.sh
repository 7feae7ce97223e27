#!/bin/sh
#
# Live captures with --compress, on the loopback interface of a network
# namespace of our own: tcpdump writes the last, partly filled block when
# it stops, whether after -c packets or on SIGINT, because it closes the
# dumper before exiting (exit() alone would lose the block).

. "$SLUICE_SRCDIR/tests/lib.sh"
need_root
need_cmd ip zstd lz4 gzip
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

NS=sluice-sfc-$$
cleanup() {
	[ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT
trap 'cleanup; trap - EXIT; exit 143' TERM
if ! ip netns add "$NS" || ! ip -n "$NS" link set dev lo up; then
	t_fail "create a network namespace"
	t_done
fi

# wait_for FILE PATTERN: at most 10 s.
wait_for() {
	_i=0
	while [ $_i -lt 100 ]; do
		grep -E -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# 40 datagrams are 40 frames on lo; -c 40 ends the capture.
ip netns exec "$NS" "$TCPDUMP" -i lo -c 40 -w "$TMPDIR/c.zst" \
    --compress=zstd udp dst port 9999 2>"$TMPDIR/c.err" &
pid=$!
if wait_for "$TMPDIR/c.err" "listening on"; then
	ip netns exec "$NS" "$API" udp 40 9999
	i=0
	while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	wait $pid
	rc=$?
	pid=
	t_expect_eq "-c 40 --compress=zstd: tcpdump exits 0" 0 $rc
	t_check "-c 40: the file is a complete zstd stream" zstd -tq "$TMPDIR/c.zst"
	n=$("$API" read "$TMPDIR/c.zst" | sed -n 1p)
	t_expect_eq "-c 40: all 40 frames are in the file" 40 "$n"
	grep -q "^40 packets captured" "$TMPDIR/c.err"
	t_expect_eq "-c 40: the statistics are still printed" 0 $?
else
	t_fail "tcpdump -i lo did not start: $(head -3 "$TMPDIR/c.err")"
fi

# SIGINT: --print shows when tcpdump has handled all 40 frames; then the
# interrupt, and the block must reach the file.
ip netns exec "$NS" "$TCPDUMP" -n -i lo --print -w "$TMPDIR/s.lz4" \
    --compress=lz4 udp dst port 9999 >"$TMPDIR/s.out" 2>"$TMPDIR/s.err" &
pid=$!
if wait_for "$TMPDIR/s.err" "listening on"; then
	ip netns exec "$NS" "$API" udp 40 9999
	i=0
	while [ $i -lt 100 ] && [ "$(grep -c UDP "$TMPDIR/s.out")" -lt 40 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $pid
	wait $pid
	rc=$?
	pid=
	t_expect_eq "SIGINT: tcpdump exits 0" 0 $rc
	t_check "SIGINT: the file is a complete lz4 stream" lz4 -tq "$TMPDIR/s.lz4"
	n=$("$API" read "$TMPDIR/s.lz4" | sed -n 1p)
	t_expect_eq "SIGINT: all 40 frames are in the file" 40 "$n"
else
	t_fail "tcpdump -i lo did not start: $(head -3 "$TMPDIR/s.err")"
fi

# -G 1 -W 2: two files, rotated by time, each complete; tcpdump exits
# after the second.  A datagram every 0.1 s for at most 10 s.
mkdir "$TMPDIR/g"
ip netns exec "$NS" "$TCPDUMP" -i lo -G 1 -W 2 -w "$TMPDIR/g/cap-%s" \
    --compress=gzip udp dst port 9999 2>"$TMPDIR/g.err" &
pid=$!
if wait_for "$TMPDIR/g.err" "listening on"; then
	i=0
	while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
		ip netns exec "$NS" "$API" udp 1 9999
		sleep 0.1
		i=$((i + 1))
	done
	wait $pid
	rc=$?
	pid=
	t_expect_eq "-G 1 -W 2 --compress=gzip: tcpdump exits 0" 0 $rc
	t_expect_eq "-G 1 -W 2: two files" 2 "$(ls "$TMPDIR/g" | wc -l)"
	# Which file gets how many packets depends on when TPACKET_V3
	# hands them over; the first file may well stay empty.
	good=0
	total=0
	for f in "$TMPDIR"/g/cap-*; do
		n=$("$API" read "$f") && gzip -tq "$f" 2>/dev/null &&
		    good=$((good + 1)) && total=$((total + n))
	done
	t_expect_eq "-G 1 -W 2: both are complete gzip savefiles" 2 $good
	# As in stock tcpdump, the packet that ends the last file is
	# counted as captured but not written.
	c=$(sed -n 's/^\([0-9]*\) packets captured$/\1/p' "$TMPDIR/g.err")
	t_expect_eq "-G 1 -W 2: they hold the packets captured but the last" \
	    "$((c - 1))" "$total"
else
	t_fail "tcpdump -G did not start: $(head -3 "$TMPDIR/g.err")"
fi

t_done
