#!/bin/bash
# Extra: callgrind of a -C 1 rotation (no writer thread, the default with -C), to see the per-file cost of the header block.
cd /tmp/perf3
mkdir -p cg/rot
declare -A DIR=([before]=/tmp/perf/after [after]=/tmp/perf3/after)
for c in lz4:1 zstd:-1 gzip:1; do for v in before after; do
	d=${DIR[$v]}; rm -rf t/rot-$v; mkdir -p t/rot-$v
	LD_LIBRARY_PATH=$d/lib valgrind --tool=callgrind --callgrind-out-file=cg/rot/$c-$v.cg $d/tcpdump -r /tmp/perf/data/http40k.pcap -w t/rot-$v/o -C 1 --compress=$c >cg/rot/$c-$v.log 2>&1 &
done; wait
for v in before after; do
	recs=$(for f in $(ls t/rot-$v | sort -V); do LD_LIBRARY_PATH=/tmp/perf3/after/lib /tmp/perf3/after/tcpdump -r t/rot-$v/$f -w - 2>/dev/null | tail -c +25; done | md5sum | cut -c1-12)
	echo "C1 $c $v Ir $(grep '^summary:' cg/rot/$c-$v.cg | awk '{print $2}') files $(ls t/rot-$v | wc -l) bytes $(du -sb t/rot-$v | cut -f1) records-md5 $recs"
done; done | tee cg/rot/summary.txt
echo "input records md5 $(tail -c +25 /tmp/perf/data/http40k.pcap | md5sum | cut -c1-12)" | tee -a cg/rot/summary.txt
rm -rf t/rot-before t/rot-after
