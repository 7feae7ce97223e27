#!/bin/bash
# Extra: callgrind of a -C rotation (C=10 MB files unless C is set; CODECS selects; no writer thread, the default with -C), the per-file
# paths (open, header, close) that the condensed code also touches. Both versions at the same time; nice -n 19.
cd /tmp/perf5
mkdir -p cg/rot t
declare -A DIR=([before]=/tmp/perf5/before [after]=/tmp/perf5/after)
IN=/tmp/perf5/data/httpreal100k.pcap
C=${C:-10}
for c in ${CODECS:-none zstd:-1 lz4:1 gzip:1}; do for v in before after; do
	d=${DIR[$v]}; rm -rf t/rot-$v; mkdir -p t/rot-$v
	LD_LIBRARY_PATH=$d/lib valgrind --tool=callgrind --callgrind-out-file=cg/rot/C$C-$c-$v.cg $d/tcpdump -r $IN -w t/rot-$v/o -C $C --compress=$c >cg/rot/C$C-$c-$v.log 2>&1 &
done; wait
for v in before after; do
	files=$(for f in $(ls t/rot-$v | sort -V); do md5sum < t/rot-$v/$f | cut -c1-8; done | tr '\n' ' ')
	recs=$(for f in $(ls t/rot-$v | sort -V); do LD_LIBRARY_PATH=/tmp/perf5/after/lib /tmp/perf5/after/tcpdump -r t/rot-$v/$f -w - 2>/dev/null | tail -c +25; done | md5sum | cut -c1-12)
	echo "C$C $c $v Ir $(grep '^summary:' cg/rot/C$C-$c-$v.cg | awk '{print $2}') files $(ls t/rot-$v | wc -l) bytes $(cat t/rot-$v/* | wc -c) records-md5 $recs file-md5s $files"
done; done | tee -a cg/rot/summary.txt
echo "input records md5 $(tail -c +25 $IN | md5sum | cut -c1-12)" | tee -a cg/rot/summary.txt
rm -rf t/rot-before t/rot-after
