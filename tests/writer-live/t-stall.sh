#!/bin/sh
#
# A disk that stops draining: tcpdump -w into a FIFO whose reader never
# reads.  The writer thread blocks in write(), the capture goes on, and
# ^C still ends tcpdump within a bound: the close gives the savefile up
# after 10 seconds without progress, says so, exits 1, and its figures
# add up -- captured = written + dropped by writer + lost.  Before, the
# close waited for the ring to drain, for ever.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"

need_root
need_cmd ip mkfifo

N=3000		# 1514-byte frames: 4.5 MB, far more than a pipe holds
build_traffic_tools
if ! netns_setup; then
	t_fail "create namespaces and veth pair"
	t_done
fi

mkfifo "$TMPDIR/fifo"
# The reader opens the FIFO and never reads: a stalled disk.
sleep 120 <"$TMPDIR/fifo" &
reader=$!
netns_bg "$NS_B" "$TMPDIR/td.out" "$TMPDIR/td.err" \
    "$TCPDUMP" -n -i "$VETH_B" --writer-ring=16m -w "$TMPDIR/fifo"
td=$NETNS_BG_PID
if ! netns_wait_for "$TMPDIR/td.err" "listening on" 100; then
	t_fail "tcpdump did not start: $(head -3 "$TMPDIR/td.err")"
	kill "$reader" 2>/dev/null
	t_done
fi
netns_exec "$NS_A" "$GEN" --type random1518 --count $N --rate 20000 \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
sleep 1
t_check "the capture goes on behind the stalled writer" proc_alive "$td"

start=$(date +%s)
# 30 s: the 10 s without progress, once for the flush and at most once
# more for the close, and room for a loaded machine.
netns_stop "$td" INT 300
took=$(($(date +%s) - start))
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
if [ "$NETNS_STATUS" -ne 255 ] && [ "$took" -le 25 ]; then
	t_ok "^C ends tcpdump in ${took} s despite the stalled writer"
else
	t_fail "^C did not end tcpdump: status $NETNS_STATUS after ${took} s"
fi
t_expect_eq "exit status 1" 1 "$NETNS_STATUS"
t_check "it says why" grep -q \
    "fifo: the savefile took no data for 10 seconds (a stalled disk or pipe); given up ([0-9]* packets lost)" \
    "$TMPDIR/td.err"

# captured = written + dropped by writer + lost
num() {
	sed -n "s/^\([0-9]*\) packets\{0,1\} $1\$/\1/p" "$TMPDIR/td.err" | head -1
}
captured=$(num captured)
written=$(num written)
dropped=$(num "dropped by writer (ring full)")
lost=$(sed -n 's/.*given up (\([0-9]*\) packets lost)$/\1/p' "$TMPDIR/td.err")
t_expect_eq "every frame sent was captured" $N "$captured"
t_expect_eq "captured = written + dropped by writer + lost ($written + $dropped + $lost)" \
    "$captured" "$((written + dropped + lost))"
netns_teardown_check
t_done
