#!/bin/bash
# callgrind instruction counts, before vs after; output: cg/summary.txt
cd /tmp/perf
IN=data/http40k.pcap
run() { # name v args...
	local name=$1 v=$2; shift 2
	rm -f out/cg.out
	LD_LIBRARY_PATH=$v/lib valgrind --tool=callgrind --callgrind-out-file=cg/$name-$v.cg $v/tcpdump "$@" >cg/$name-$v.log 2>&1
	local ir=$(grep '^summary:' cg/$name-$v.cg | awk '{print $2}')
	echo "$name $v $ir $(md5sum < out/cg.out | cut -c1-12)" | tee -a cg/summary.txt
}
: > cg/summary.txt
for rep in 1 2; do
for v in before after; do
	run zstdm1-nowriter-r$rep $v -r $IN -w out/cg.out --compress=zstd:-1 --writer-ring=0
	run zstdm1-writer-r$rep $v -r $IN -w out/cg.out --compress=zstd:-1
done; done
for v in before after; do
	run plain $v -r $IN -w out/cg.out
	run plain-writer $v -r $IN -w out/cg.out --writer-ring=64m
	run zstd3-nowriter $v -r $IN -w out/cg.out --compress=zstd:3 --writer-ring=0
	run lz41-nowriter $v -r $IN -w out/cg.out --compress=lz4:1 --writer-ring=0
	run gzip1-nowriter $v -r $IN -w out/cg.out --compress=gzip:1 --writer-ring=0
	run real-zstdm1-nowriter $v -r data/http-real.pcap -w out/cg.out --compress=zstd:-1 --writer-ring=0
	run real-zstdm1-writer $v -r data/http-real.pcap -w out/cg.out --compress=zstd:-1
done
