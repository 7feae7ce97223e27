#!/bin/bash
# callgrind instruction counts, BEFORE (e681717, /tmp/perf5/before) vs AFTER (HEAD 428e2c4, /tmp/perf5/after).
# Both versions of a case run at the same time (callgrind counts do not see load). Run under nice -n 19.
# Output: cg/summary.txt: name version rep Ir md5(output, first 12; for read-*: md5 of the records, bytes 25..)
# CASES (regex on the case name) selects; REPS (default "1") the repetitions.
cd /tmp/perf5
D=/tmp/perf5/data
IN=$D/httpreal100k.pcap
mkdir -p cg out
declare -A DIR=([before]=/tmp/perf5/before [after]=/tmp/perf5/after)
run() { # name v rep args... ; OUT in args is replaced
	local name=$1 v=$2 rep=$3; shift 3
	local d=${DIR[$v]} out=out/cg-$v-$name.out a args=()
	for a in "$@"; do args+=("${a//OUT/$out}"); done
	rm -f $out
	LD_LIBRARY_PATH=$d/lib valgrind --tool=callgrind --callgrind-out-file=cg/$name-$v-r$rep.cg $d/tcpdump "${args[@]}" >cg/$name-$v-r$rep.log 2>&1
	local rc=$?
	local ir=$(grep '^summary:' cg/$name-$v-r$rep.cg | awk '{print $2}')
	local m; if [[ $name == read-* ]]; then m=$(tail -c +25 $out | md5sum | cut -c1-12); else m=$(md5sum < $out | cut -c1-12); fi
	echo "$name $v r$rep $ir $m $(stat -c %s $out) rc=$rc" >> cg/summary.txt
	[[ $name == read-* || $name == plain* ]] && rm -f $out
}
both() { [[ $1 =~ ${CASES:-.} ]] || return 0; run "$1" before "$REP" "${@:2}" & run "$1" after "$REP" "${@:2}" & wait; }
for REP in ${REPS:-1}; do
	both plain -r $IN -w OUT
	both plain-writer64m -r $IN -w OUT --writer-ring=64m
	both zstdm1-nowriter -r $IN -w OUT --compress=zstd:-1 --writer-ring=0
	both zstdm1-writer -r $IN -w OUT --compress=zstd:-1
	both lz41-nowriter -r $IN -w OUT --compress=lz4:1 --writer-ring=0
	both gzip1-nowriter -r $IN -w OUT --compress=gzip:1 --writer-ring=0
	both gzip1-writer -r $IN -w OUT --compress=gzip:1
	both lz4auto-nowriter -r $IN -w OUT --compress=lz4 --writer-ring=0
	both lz4auto-writer -r $IN -w OUT --compress=lz4
	both zstdauto-nowriter -r $IN -w OUT --compress=zstd --writer-ring=0
	both zstdauto-writer -r $IN -w OUT --compress=zstd
	both read-zstd -r $D/real100k.zstd -w OUT
	both read-lz4 -r $D/real100k.lz4 -w OUT
	both read-gzip -r $D/real100k.gzip -w OUT
	echo "rep $REP done $(date -u +%T)" >> cg/progress.txt
done
