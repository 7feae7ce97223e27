#!/bin/bash
# -C 1 with a forced writer thread: files differ run to run; check that the records, concatenated, are the input's.
cd /tmp/perf
in=data/http400k.pcap
echo "input records md5: $(tail -c +25 $in | md5sum | cut -c1-16)"
for v in before after; do for rep in 1 2; do
	rm -rf t/cw; mkdir -p t/cw
	LD_LIBRARY_PATH=$v/lib $v/tcpdump -r $in -w t/cw/o -C 1 --compress=zstd:-1 --writer-ring=64m 2>/dev/null
	files=$(cd t/cw && ls | sort -V)
	sizes=$(cd t/cw && for f in $files; do stat -c %s $f; done | sort -n | awk '{a[NR]=$1} END{print "n=" NR " min=" a[1] " max=" a[NR]}')
	recs=$(for f in $files; do LD_LIBRARY_PATH=after/lib after/tcpdump -r t/cw/$f -w - 2>/dev/null | tail -c +25; done | md5sum | cut -c1-16)
	echo "$v rep$rep: files $sizes bytes; records md5 $recs; files md5 $(cd t/cw && ls | sort -V | xargs md5sum | md5sum | cut -c1-16)"
done; done
rm -rf t/cw
