#!/bin/bash
# Byte-identity of before/after outputs. Output: ident/results.txt (one line per case)
cd /tmp/perf
mkdir -p ident t
R=ident/results.txt; : > $R
td() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/perf/$v/lib /tmp/perf/$v/tcpdump "$@"; }
one() { # name args... (args use OUT placeholder)
	local name=$1; shift
	local v sums=() a
	for v in before after; do
		rm -rf t/$v; mkdir -p t/$v
		local args=(); for a in "$@"; do args+=("${a//OUT/t/$v/o}"); done
		td $v "${args[@]}" >t/$v.log 2>&1 || { echo "$name $v FAILED rc=$?: $(tail -2 t/$v.log)" >> $R; }
		sums+=("$(cd t/$v && ls | sort -V | xargs md5sum | md5sum | cut -c1-16) $(ls t/$v | wc -l)files $(du -sb t/$v | cut -f1)B")
	done
	if [ "$(cd t/before && ls | sort -V | xargs md5sum)" = "$(cd t/after && ls | sort -V | xargs md5sum)" ]; then s=IDENTICAL; else s=DIFFERENT; fi
	echo "$s $name | before ${sums[0]} | after ${sums[1]} | tcpdump $*" | tee -a $R
	if [ $s = DIFFERENT ]; then (cd t && for f in $(ls before); do cmp before/$f after/$f; done; ls before after) >> ident/diff-$name.txt 2>&1; fi
}
for in in data/http400k.pcap data/httpreal100k.pcap; do
	b=$(basename $in .pcap)
	one $b-plain -r $in -w OUT
	one $b-plain-writer -r $in -w OUT --writer-ring=64m
	for c in zstd:-1 zstd:3 lz4:1 gzip:1 none; do
		one $b-$c-nowriter -r $in -w OUT --compress=$c --writer-ring=0
		one $b-$c-writer -r $in -w OUT --compress=$c
		one $b-$c-writer64m -r $in -w OUT --compress=$c --writer-ring=64m
	done
done
in=data/http400k.pcap; b=http400k
one $b-plain-C1 -r $in -w OUT -C 1
for c in zstd:-1 zstd:3 lz4:1 gzip:1 none; do
	one $b-$c-C1 -r $in -w OUT -C 1 --compress=$c
done
one $b-zstd:-1-C1-writer0 -r $in -w OUT -C 1 --compress=zstd:-1 --writer-ring=0
one $b-zstd:3-C1-W -r $in -w OUT -C 1 --compress=zstd:3 -W 5
# -C with a writer thread forced: file boundaries depend on timing; run twice to see
for rep in 1 2; do one $b-zstd:-1-C1-writer64m-rep$rep -r $in -w OUT -C 1 --compress=zstd:-1 --writer-ring=64m; done
rm -rf t/before t/after
