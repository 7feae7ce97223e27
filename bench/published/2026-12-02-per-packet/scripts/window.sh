#!/bin/bash
# window.sh REPS: a cross-check of bench/cpu.sh's per-packet figure with
# no harness around the run: the capture thread's CPU from "listening on"
# to 1.6 s after the sender's last frame (schedstat), 200,000 64-byte
# frames in 1 s, capture on CPU 1, sender on CPU 0, the same command
# line as bench/cpu.sh's.  Prints CSV: rep, variant, ns at ready, ns in
# the window, the writer's ns, voluntary and involuntary context
# switches of the capture thread, packets captured.
B=/work/main/_build
SLUICE_SRCDIR=/work/main
. /work/main/tests/live/netns.sh
netns_setup || exit 1
echo "rep,variant,ready_ns,window_ns,writer_ns,voluntary,involuntary,captured"
for r in $(seq "${1:-5}"); do
	for v in stock before after; do
		case $v in
		stock) TD="env LD_LIBRARY_PATH=$B/stage-stock/usr/local/lib $B/obj/stock-tcpdump/tcpdump" ;;
		*) TD="env LD_LIBRARY_PATH=/var/tmp/hb/$v $B/obj/tcpdump/tcpdump" ;;
		esac
		rm -f /var/tmp/window.pcap
		ip netns exec "$NS_B" taskset -c 1 $TD -n -i "$VETH_B" -s 65535 \
		    -B 2048 -w /var/tmp/window.pcap 2>/tmp/window.err &
		for i in $(seq 50); do
			grep -q listening /tmp/window.err 2>/dev/null && break
			sleep 0.1
		done
		pid=$(pgrep -n -f "tcpdump -n -i $VETH_B")
		c0=$(cut -d' ' -f1 "/proc/$pid/task/$pid/schedstat")
		ip netns exec "$NS_A" taskset -c 0 "$B/tools/sluice-gen" \
		    --type fixed64 --count 200000 --rate 200000 --seed 7 \
		    --iface "$VETH_A" 2>/dev/null
		sleep 1.6
		c1=$(cut -d' ' -f1 "/proc/$pid/task/$pid/schedstat")
		vol=$(awk '/^voluntary/ { print $2 }' "/proc/$pid/task/$pid/status")
		inv=$(awk '/^nonvoluntary/ { print $2 }' "/proc/$pid/task/$pid/status")
		w=0
		for t in /proc/"$pid"/task/*; do
			[ "$(cat "$t/comm")" = pcap-writer ] &&
			    w=$(cut -d' ' -f1 "$t/schedstat")
		done
		kill -INT "$pid"
		wait "$pid" 2>/dev/null
		cap=$(sed -n 's/^\([0-9]*\) packets captured/\1/p' /tmp/window.err)
		echo "$r,$v,$c0,$((c1 - c0)),$w,$vol,$inv,$cap"
	done
done
rm -f /var/tmp/window.pcap
