#!/bin/bash
# callgrind of reading compressed savefiles (the reader was merged too), before vs after
cd /tmp/perf
for c in zstd lz4 gzip; do for v in before after; do
	LD_LIBRARY_PATH=$v/lib valgrind --tool=callgrind --callgrind-out-file=cg/read-$c-$v.cg $v/tcpdump -r data/http40k.$c -w out/read.pcap >cg/read-$c-$v.log 2>&1
	echo "read-$c $v $(grep '^summary:' cg/read-$c-$v.cg | awk '{print $2}') $(tail -c +25 out/read.pcap | md5sum | cut -c1-12)" | tee -a cg/summary.txt
done; done
echo "input records md5 $(tail -c +25 data/http40k.pcap | md5sum | cut -c1-12)" | tee -a cg/summary.txt
