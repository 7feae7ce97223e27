#!/bin/bash
# Is the adaptive level's output repeatable within one version? Each version writes the same copy 3 times
# (native, under nice -n 19, with the CI running): size, md5 and tcpdump's "blocks at compression level" line.
cd /tmp/perf5
mkdir -p t ident
declare -A DIR=([before]=/tmp/perf5/before [after]=/tmp/perf5/after)
for opts in "--compress=zstd --writer-ring=0" "--compress=zstd"; do
for rep in 1 2 3; do for v in before after; do
	d=${DIR[$v]}; rm -f t/ad.out
	lv=$(LD_LIBRARY_PATH=$d/lib $d/tcpdump -r data/http400k.pcap -w t/ad.out $opts 2>&1 | grep 'blocks at')
	echo "http400k $opts | $v r$rep | $(stat -c %s t/ad.out) B $(md5sum < t/ad.out | cut -c1-12) | $lv"
done; done; done | tee ident/adaptive-repeat.txt
rm -f t/ad.out
