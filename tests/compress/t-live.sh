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
. "$SLUICE_SRCDIR/tests/live/netns.sh"

# One namespace of our own, its loopback only; netns_cleanup (from the
# trap) deletes it and kills what netns_bg started.
NS_A=sluice-sfc-$$
trap 'netns_cleanup' EXIT
trap 'netns_cleanup; trap - EXIT; exit 130' INT
trap 'netns_cleanup; trap - EXIT; exit 143' TERM
if ! ip netns add "$NS_A" || ! ip -n "$NS_A" link set dev lo up; then
	t_fail "create a network namespace"
	t_done
fi

# 40 datagrams are 40 frames on lo; -c 40 ends the capture.
netns_bg "$NS_A" /dev/null "$TMPDIR/c.err" "$TCPDUMP" -i lo -c 40 \
    -w "$TMPDIR/c.zst" --compress=zstd udp dst port 9999
if netns_wait_for "$TMPDIR/c.err" "listening on" 100; then
	netns_exec "$NS_A" "$API" udp 40 9999
	# Signal 0: only wait (10 s at most) for -c 40 to end it.
	netns_stop "$NETNS_BG_PID" 0 100
	t_expect_eq "-c 40 --compress=zstd: tcpdump exits 0" 0 "$NETNS_STATUS"
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
netns_bg "$NS_A" "$TMPDIR/s.out" "$TMPDIR/s.err" "$TCPDUMP" -n -i lo \
    --print -w "$TMPDIR/s.lz4" --compress=lz4 udp dst port 9999
if netns_wait_for "$TMPDIR/s.err" "listening on" 100; then
	netns_exec "$NS_A" "$API" udp 40 9999
	i=0
	while [ $i -lt 100 ] && [ "$(grep -c UDP "$TMPDIR/s.out")" -lt 40 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	netns_stop "$NETNS_BG_PID" INT 100
	t_expect_eq "SIGINT: tcpdump exits 0" 0 "$NETNS_STATUS"
	t_check "SIGINT: the file is a complete lz4 stream" lz4 -tq "$TMPDIR/s.lz4"
	n=$("$API" read "$TMPDIR/s.lz4" | sed -n 1p)
	t_expect_eq "SIGINT: all 40 frames are in the file" 40 "$n"
else
	t_fail "tcpdump -i lo did not start: $(head -3 "$TMPDIR/s.err")"
fi

# -G 1 -W 2: two files, rotated by time, each complete; tcpdump exits
# after the second.  A datagram every 0.1 s for at most 10 s.
mkdir "$TMPDIR/g"
netns_bg "$NS_A" /dev/null "$TMPDIR/g.err" "$TCPDUMP" -i lo -G 1 -W 2 \
    -w "$TMPDIR/g/cap-%s" --compress=gzip udp dst port 9999
pid=$NETNS_BG_PID
if netns_wait_for "$TMPDIR/g.err" "listening on" 100; then
	i=0
	while [ $i -lt 100 ] && proc_alive "$pid"; do
		netns_exec "$NS_A" "$API" udp 1 9999
		sleep 0.1
		i=$((i + 1))
	done
	netns_stop "$pid" 0 10
	t_expect_eq "-G 1 -W 2 --compress=gzip: tcpdump exits 0" 0 "$NETNS_STATUS"
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
	# The packet that ends the last file goes to no file, and is not
	# counted as captured (stock tcpdump counts it).
	c=$(sed -n 's/^\([0-9]*\) packets\{0,1\} captured$/\1/p' "$TMPDIR/g.err")
	t_expect_eq "-G 1 -W 2: they hold every packet captured" \
	    "$c" "$total"
else
	t_fail "tcpdump -G did not start: $(head -3 "$TMPDIR/g.err")"
fi

t_done
