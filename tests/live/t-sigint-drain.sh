#!/bin/sh
#
# A SIGINT right after the last frame arrived loses nothing: tcpdump reads
# what the kernel still holds before it stops (stock tcpdump drops up to a
# TPACKET_V3 block timeout's worth of frames here, counted as "received by
# filter" but never written).  The file holds every frame, in order, and
# the figures printed at exit add up: captured = received - dropped.
# Stock tcpdump runs the same scenario for comparison; its figures are
# reported, not asserted.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"

N=3000
netns_live_setup

# figure WHAT FILE: the number before "packets WHAT" in tcpdump's stderr.
figure() {
	sed -n "s/^\([0-9][0-9]*\) packets\{0,1\} $1\$/\1/p" "$2" | tail -1
}

# capture NAME TCPDUMP LIBDIR: capture N frames, SIGINT as soon as the
# receiving interface has counted them all.
capture() {
	netns_bg "$NS_B" "$TMPDIR/$1.out" "$TMPDIR/$1.err" \
	    env LD_LIBRARY_PATH="$3" "$2" -n -i "$VETH_B" -s 2048 -B 16384 \
	    -w "$TMPDIR/$1.pcap"
	_pid=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/$1.err" "listening on" 100; then
		t_fail "$1: tcpdump did not start: $(head -3 "$TMPDIR/$1.err")"
		return 1
	fi
	rx0=$(netns_rx_packets)
	netns_exec "$NS_A" "$GEN" --type http --count $N --rate 50000 \
	    --iface "$VETH_A" 2>"$TMPDIR/$1.gen"
	_i=0
	while [ $_i -lt 50 ]; do
		rx=$(netns_rx_packets)
		[ $((rx - rx0)) -ge $N ] && break
		sleep 0.05
		_i=$((_i + 1))
	done
	netns_stop "$_pid" INT 100
	return 0
}

if capture ours "$TCPDUMP" "$LD_LIBRARY_PATH"; then
	t_expect_eq "tcpdump exits 0 on SIGINT" 0 "$NETNS_STATUS"
	c=$(figure captured "$TMPDIR/ours.err")
	r=$(figure "received by filter" "$TMPDIR/ours.err")
	k=$(figure "dropped by kernel" "$TMPDIR/ours.err")
	echo "# summary: tcpdump under test at SIGINT: $c captured, $r received, $k dropped"
	t_expect_eq "every frame is captured" "$N" "$c"
	t_expect_eq "the exit figures add up (captured = received - dropped)" \
	    "$r" "$((c + k))"
	t_check "the file holds every frame, once, in order" \
	    "$CHK" --quiet --expect $N "$TMPDIR/ours.pcap"
fi

if [ -x "$STOCK_TCPDUMP" ] && capture stock "$STOCK_TCPDUMP" "$STOCK_LD_LIBRARY_PATH"; then
	c=$(figure captured "$TMPDIR/stock.err")
	r=$(figure "received by filter" "$TMPDIR/stock.err")
	k=$(figure "dropped by kernel" "$TMPDIR/stock.err")
	echo "# summary: stock tcpdump at SIGINT: $c captured, $r received, $k dropped"
fi
t_done
