#!/bin/sh
# idle.sh WAIT REPS: CPU of each capture's threads with no frames sent, read
# after WAIT seconds, as bench/cpu.sh reads it (the same command line,
# ip netns exec + taskset -c 1 + env included): the fixed cost that a 1-s
# run's per-packet figure carries.
B=/work/main/_build
SLUICE_SRCDIR=/work/main
. /work/main/tests/live/netns.sh
netns_setup || exit 1
echo "rep,variant,wait_s,capture_ns,writer_ns"
r=1
while [ $r -le "${2:-3}" ]; do
for cfg in stock before after; do
case $cfg in
stock) TD="env LD_LIBRARY_PATH=$B/stage-stock/usr/local/lib $B/obj/stock-tcpdump/tcpdump" ;;
before) TD="env LD_LIBRARY_PATH=/var/tmp/hb/before $B/obj/tcpdump/tcpdump" ;;
after) TD="env LD_LIBRARY_PATH=/var/tmp/hb/after $B/obj/tcpdump/tcpdump" ;;
esac
rm -f /var/tmp/idle.pcap
ip netns exec $NS_B taskset -c 1 $TD -n -i $VETH_B -s 65535 -B 2048 -w /var/tmp/idle.pcap 2>/tmp/idle.err &
sleep "${1:-2}"
pid=$(pgrep -n -f "tcpdump -n -i $VETH_B")
c=$(cut -d' ' -f1 /proc/$pid/task/$pid/schedstat)
w=0
for t in /proc/$pid/task/*; do
	[ "$(cat $t/comm)" = pcap-writer ] && w=$(cut -d' ' -f1 $t/schedstat)
done
echo "$r,$cfg,${1:-2},$c,$w"
kill -INT $pid; sleep 1
done
r=$((r + 1))
done
rm -f /var/tmp/idle.pcap
