#!/bin/bash
# Live capture CPU per packet: veth pair in two namespaces (tests/live/netns.sh), sluice-gen
# sends N HTTP frames in NS_A (pinned to CPU 0), tcpdump captures on VETH_B in NS_B (pinned to CPU 1).
# CPU of the tcpdump process read from /proc just before SIGINT, once every frame has arrived.
# Output: live/live.csv
cd /tmp/perf
SLUICE_SRCDIR=/work/main
. /work/main/tests/live/netns.sh
netns_setup || exit 1
N=${N:-400000}; RATE=${RATE:-200000}; REPS=${REPS:-3}
GEN=/tmp/perf/tools/sluice-gen
CSV=live/live.csv
CLK=$(getconf CLK_TCK)
echo "config,version,rep,sent,captured,kdropped,wdropped,proc_utime_s,proc_stime_s,proc_sched_s,main_sched_s,ns_per_pkt_proc_stat,ns_per_pkt_proc_sched,ns_per_pkt_main" > $CSV
rxb() { ip netns exec "$NS_B" cat /sys/class/net/$VETH_B/statistics/rx_packets; }
configs() {
	echo "plain+writer|"
	echo "plain|--writer-ring=0"
	echo "zstd:-1+writer|--compress=zstd:-1"
	echo "zstd:-1|--compress=zstd:-1 --writer-ring=0"
}
one() { # cname version rep opts
	local cname=$1 v=$2 rep=$3 opts=$4 lib td
	if [ $v = stock ]; then lib=/tmp/base/_build/stage-stock/usr/local/lib; td=/tmp/base/_build/obj/stock-tcpdump/tcpdump
	else lib=/tmp/perf/$v/lib; td=/tmp/perf/$v/tcpdump; fi
	rm -f live/cap.out live/cap.err
	# shellcheck disable=SC2086
	ip netns exec "$NS_B" env LD_LIBRARY_PATH=$lib taskset -c 1 $td -n -s 65535 -B 2048 -i "$VETH_B" -w live/cap.out $opts 2>live/cap.err &
	local pid=$! i=0
	NETNS_BG_PIDS="$NETNS_BG_PIDS $pid"
	while [ $i -lt 500 ] && ! grep -q 'listening on' live/cap.err; do proc_alive $pid || break; sleep 0.02; i=$((i+1)); done
	grep -q 'listening on' live/cap.err || { echo "capture did not start: $(head -2 live/cap.err)" >&2; proc_stop $pid KILL 20; return 1; }
	local rx0; rx0=$(rxb)
	ip netns exec "$NS_A" taskset -c 0 $GEN --type http --count $N --rate $RATE --seed 7 --iface "$VETH_A" 2>live/gen.err
	local sent; sent=$(sed -n 's/.*: sent \([0-9]*\) frames.*/\1/p' live/gen.err)
	i=0; while [ $i -lt 250 ] && [ $(( $(rxb) - rx0 )) -lt ${sent:-0} ]; do sleep 0.02; i=$((i+1)); done
	# the kernel hands over a partly filled block after 1 s; let tcpdump read and write it
	sleep 1.5
	local st ut stt sched main
	st=$(cat /proc/$pid/stat); st=${st##*) }
	ut=$(echo "$st" | awk '{print $12}'); stt=$(echo "$st" | awk '{print $13}')
	sched=$(cat /proc/$pid/task/*/schedstat | awk '{s+=$1} END {print s}')
	main=$(awk '{print $1}' /proc/$pid/task/$pid/schedstat)
	proc_stop $pid INT 100
	local cap kd wd
	cap=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' live/cap.err)
	kd=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' live/cap.err)
	wd=$(sed -n 's/^\([0-9]*\) packets dropped by writer.*/\1/p' live/cap.err)
	awk -v c="$cname" -v v=$v -v r=$rep -v s="$sent" -v cap="$cap" -v kd="$kd" -v wd="${wd:-na}" -v ut=$ut -v st=$stt -v clk=$CLK -v sc=$sched -v m=$main 'BEGIN {
		printf "%s,%s,%s,%s,%s,%s,%s,%.2f,%.2f,%.4f,%.4f,%.0f,%.0f,%.0f\n", c, v, r, s, cap, kd, wd, ut/clk, st/clk, sc/1e9, m/1e9, (ut+st)/clk*1e9/cap, sc/cap, m/cap }' | tee -a $CSV
	cp live/cap.err live/last-$cname-$v.err
}
configs | while IFS='|' read -r cname opts; do
	for rep in $(seq 1 $REPS); do
		if [ $((rep % 2)) = 1 ]; then order="before after"; else order="after before"; fi
		for v in $order; do one "$cname" $v $rep "$opts"; done
		[ "$cname" = plain ] && one stock stock $rep ""
	done
done
rm -f live/cap.out
