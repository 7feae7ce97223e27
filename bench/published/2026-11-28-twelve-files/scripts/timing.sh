#!/bin/bash
# Wall and CPU time of the offline copy, before/after interleaved, pinned to one CPU.
# Output: timing/timing.csv (config,version,rep,wall,user,sys)
cd /tmp/perf
mkdir -p timing t
CPU=${CPU:-1}
REPS=${REPS:-5}
CSV=timing/timing.csv
echo "input,config,version,rep,wall_s,user_s,sys_s" > $CSV
TIMEFORMAT='%R %U %S'
configs() {
	echo "plain|"
	echo "zstd:-1|--compress=zstd:-1 --writer-ring=0"
	echo "zstd:-1+writer|--compress=zstd:-1"
	echo "zstd:3|--compress=zstd:3 --writer-ring=0"
	echo "lz4:1|--compress=lz4:1 --writer-ring=0"
	echo "gzip:1|--compress=gzip:1 --writer-ring=0"
}
for in in data/http400k.pcap data/httpreal100k.pcap; do
	cat $in > /dev/null
	b=$(basename $in .pcap)
	configs | while IFS='|' read -r cname opts; do
		for rep in $(seq 1 $REPS); do
			# alternate which goes first
			if [ $((rep % 2)) = 1 ]; then order="before after"; else order="after before"; fi
			for v in $order stock; do
				[ $v = stock ] && [ "$cname" != plain ] && continue
				rm -f t/tout; sync -f t 2>/dev/null
				if [ $v = stock ]; then lib=/tmp/base/_build/stage-stock/usr/local/lib; td=/tmp/base/_build/obj/stock-tcpdump/tcpdump
				else lib=$v/lib; td=$v/tcpdump; fi
				# shellcheck disable=SC2086
				t=$( { time LD_LIBRARY_PATH=$lib taskset -c $CPU $td -r $in -w t/tout $opts 2>/dev/null; } 2>&1 )
				echo "$b,$cname,$v,$rep,${t// /,}" >> $CSV
			done
		done
	done
done
rm -f t/tout
