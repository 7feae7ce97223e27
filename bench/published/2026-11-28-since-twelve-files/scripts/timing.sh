#!/bin/bash
# Wall and CPU time of the offline copy, BEFORE (/tmp/perf/after) vs AFTER (/tmp/perf3/after) interleaved
# (odd runs before first, even runs after first), all pinned to one CPU (the writer thread too).
# ONLY (regex on the config line) and INPUTS select; default: plain, zstd:-1, zstd:-1+writer on both inputs.
# Output: timing/timing.csv (input,config,version,rep,wall_s,user_s,sys_s,loadavg1)
cd /tmp/perf3
mkdir -p timing t
CPU=${CPU:-1}; REPS=${REPS:-5}; CSV=${CSV:-timing/timing.csv}
declare -A DIR=([before]=/tmp/perf/after [after]=/tmp/perf3/after)
echo "input,config,version,rep,wall_s,user_s,sys_s,loadavg1" > $CSV
TIMEFORMAT='%R %U %S'
configs() {
	echo "plain|"
	echo "zstd:-1|--compress=zstd:-1 --writer-ring=0"
	echo "zstd:-1+writer|--compress=zstd:-1"
	echo "lz4:1|--compress=lz4:1 --writer-ring=0"
}
for in in ${INPUTS:-/tmp/perf/data/http400k.pcap /tmp/perf/data/httpreal100k.pcap}; do
	cat $in > /dev/null
	b=$(basename $in .pcap)
	configs | grep -E "${ONLY:-^(plain|zstd:-1|zstd:-1\+writer)\|}" | while IFS='|' read -r cname opts; do
		for rep in $(seq 1 $REPS); do
			if [ $((rep % 2)) = 1 ]; then order="before after"; else order="after before"; fi
			for v in $order; do
				rm -f t/tout; sync -f t 2>/dev/null
				d=${DIR[$v]}
				la=$(cut -d' ' -f1 /proc/loadavg)
				# shellcheck disable=SC2086
				t=$( { time LD_LIBRARY_PATH=$d/lib taskset -c $CPU $d/tcpdump -r $in -w t/tout $opts 2>/dev/null; } 2>&1 )
				echo "$b,$cname,$v,$rep,${t// /,},$la" >> $CSV
			done
		done
	done
done
rm -f t/tout
