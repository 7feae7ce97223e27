#!/bin/bash
# Wall and CPU time of the offline copy, BEFORE (/tmp/perf5/before, e681717) vs AFTER (/tmp/perf5/after, HEAD 428e2c4) interleaved
# (odd runs before first, even runs after first), all pinned to one CPU (the writer thread too).
# ONLY (regex on the config line) and INPUTS select; default: plain and zstd:-1 (no writer) on both inputs.
# Output: timing/timing.csv (input,config,version,rep,wall_s,user_s,sys_s,loadavg1)
cd /tmp/perf5
mkdir -p timing t
CPU=${CPU:-1}; REPS=${REPS:-3}; CSV=${CSV:-timing/timing.csv}
declare -A DIR=([before]=/tmp/perf5/before [after]=/tmp/perf5/after)
echo "input,config,version,rep,wall_s,user_s,sys_s,loadavg1" > $CSV
TIMEFORMAT='%R %U %S'
configs() {
	echo "plain|"
	echo "zstd:-1|--compress=zstd:-1 --writer-ring=0"
	echo "zstd:-1+writer|--compress=zstd:-1"
	echo "lz4:1|--compress=lz4:1 --writer-ring=0"
}
for in in ${INPUTS:-/tmp/perf5/data/http400k.pcap /tmp/perf5/data/httpreal100k.pcap}; do
	cat $in > /dev/null
	b=$(basename $in .pcap)
	configs | grep -E "${ONLY:-^(plain|zstd:-1)\|}" | while IFS='|' read -r cname opts; do
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
