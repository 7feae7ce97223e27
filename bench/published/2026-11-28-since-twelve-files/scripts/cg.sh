#!/bin/bash
# callgrind instruction counts, BEFORE (7d2666d, /tmp/perf/after) vs AFTER (HEAD 0a37577, /tmp/perf3/after).
# Both versions of a case run at the same time (callgrind counts are unaffected by load).
# Output: cg/summary.txt: name version rep Ir md5(output, first 12)
cd /tmp/perf3
D=/tmp/perf/data
declare -A DIR=([before]=/tmp/perf/after [after]=/tmp/perf3/after)
run() { # name v rep args... ; OUT in args is replaced
	local name=$1 v=$2 rep=$3; shift 3
	local d=${DIR[$v]} out=out/cg-$v.out a args=()
	for a in "$@"; do args+=("${a//OUT/$out}"); done
	rm -f $out
	LD_LIBRARY_PATH=$d/lib valgrind --tool=callgrind --callgrind-out-file=cg/$name-$v-r$rep.cg $d/tcpdump "${args[@]}" >cg/$name-$v-r$rep.log 2>&1
	local ir=$(grep '^summary:' cg/$name-$v-r$rep.cg | awk '{print $2}')
	local m; if [[ $name == read-* ]]; then m=$(tail -c +25 $out | md5sum | cut -c1-12); else m=$(md5sum < $out | cut -c1-12); fi
	echo "$name $v r$rep $ir $m" >> cg/summary.txt
}
both() { run "$1" before "$REP" "${@:2}" & run "$1" after "$REP" "${@:2}" & wait; }
: > cg/summary.txt
for REP in 1 2; do
	both zstdm1-nowriter -r $D/http40k.pcap -w OUT --compress=zstd:-1 --writer-ring=0
	both zstdm1-writer -r $D/http40k.pcap -w OUT --compress=zstd:-1
	both plain -r $D/http40k.pcap -w OUT
	both plain-writer64m -r $D/http40k.pcap -w OUT --writer-ring=64m
	both zstd3-nowriter -r $D/http40k.pcap -w OUT --compress=zstd:3 --writer-ring=0
	both lz41-nowriter -r $D/http40k.pcap -w OUT --compress=lz4:1 --writer-ring=0
	both gzip1-nowriter -r $D/http40k.pcap -w OUT --compress=gzip:1 --writer-ring=0
	both real-zstdm1-nowriter -r $D/http-real.pcap -w OUT --compress=zstd:-1 --writer-ring=0
	both real-zstdm1-writer -r $D/http-real.pcap -w OUT --compress=zstd:-1
	both read-zstd -r $D/http40k.zstd -w OUT
	both read-lz4 -r $D/http40k.lz4 -w OUT
	both read-gzip -r $D/http40k.gzip -w OUT
	echo "rep $REP done $(date -u +%T)" >> cg/progress.txt
done
echo "input records md5 $(tail -c +25 $D/http40k.pcap | md5sum | cut -c1-12)" >> cg/summary.txt
