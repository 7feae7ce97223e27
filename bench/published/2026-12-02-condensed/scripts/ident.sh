#!/bin/bash
# Record identity (and byte identity) of BEFORE (/tmp/perf5/before, e681717) vs AFTER (/tmp/perf5/after, HEAD 428e2c4). Run under nice -n 19.
# Each output is decoded to a plain pcap by the AFTER tcpdump (-r OUT -w -) and, as a cross-check, by the
# tcpdump that wrote it; md5 of those plain pcaps compared, and against the input's records (bytes 25..).
# Compressed outputs also decoded with the stock CLI (zstd -dc / lz4 -dc / gzip -dc) and compared.
# Output: ident/results.txt
cd /tmp/perf5
mkdir -p ident t
D=/tmp/perf5/data
declare -A DIR=([before]=/tmp/perf5/before [after]=/tmp/perf5/after)
td() { local v=$1; shift; LD_LIBRARY_PATH=${DIR[$v]}/lib ${DIR[$v]}/tcpdump "$@"; }
R=ident/results.txt; : > $R
m() { md5sum | cut -c1-16; }
one() { # name codec-or-empty args...
	local name=$1 codec=$2; shift 2
	local v o
	for v in before after; do
		o=t/$v.out; rm -f $o
		td $v -r $IN -w $o "$@" >t/$v.log 2>&1 || echo "$name $v FAILED rc=$?: $(tail -2 t/$v.log)" >> $R
	done
	local bb=$(stat -c %s t/before.out) ba=$(stat -c %s t/after.out)
	local fb=$(m < t/before.out) fa=$(m < t/after.out)
	local byte=DIFFERENT; cmp -s t/before.out t/after.out && byte=IDENTICAL
	# records decoded by the AFTER reader, and by each file's own writer
	local rb=$(td after -r t/before.out -w - 2>/dev/null | m) ra=$(td after -r t/after.out -w - 2>/dev/null | m)
	local sb=$(td before -r t/before.out -w - 2>/dev/null | m) sa=$(td after -r t/after.out -w - 2>/dev/null | m)
	local xb=$(td before -r t/after.out -w - 2>/dev/null | m)
	local recb=$(td after -r t/before.out -w - 2>/dev/null | tail -c +25 | m)
	local rec=DIFFERENT; [ "$rb" = "$ra" ] && [ "$sb" = "$sa" ] && [ "$rb" = "$sb" ] && [ "$xb" = "$ra" ] && rec=IDENTICAL
	local inrec=no; [ "$recb" = "$INREC" ] && inrec=yes
	local cli=""
	case $codec in
	zstd) cli="zstd-cli: $(zstd -dcq t/before.out | m) $(zstd -dcq t/after.out | m)";;
	lz4) cli="lz4-cli: $(lz4 -dcq t/before.out | m) $(lz4 -dcq t/after.out | m)";;
	gzip) cli="gzip-cli: $(gzip -dc t/before.out | m) $(gzip -dc t/after.out | m)";;
	esac
	echo "$(basename $IN .pcap) $name | bytes $byte (before $bb B $fb, after $ba B $fa) | records $rec (plain pcap md5 $ra; = input records: $inrec) | cross: before-reader-on-after $xb | $cli | tcpdump -r IN -w OUT $*" | tee -a $R
	if [ $byte = DIFFERENT ]; then
		{ echo "== $(basename $IN .pcap) $name"; cmp t/before.out t/after.out | head -1; echo "before head:"; head -c 64 t/before.out | xxd; echo "after head:"; head -c 128 t/after.out | xxd; } >> ident/diff-heads.txt
	fi
}
for IN in $D/http400k.pcap $D/httpreal100k.pcap; do
	INREC=$(tail -c +25 $IN | m)
	echo "input $(basename $IN) records md5 $INREC" | tee -a $R
	one plain ""
	one plain-writer64m "" --writer-ring=64m
	for c in zstd:-1 zstd:3 lz4:1 gzip:1 none zstd lz4; do  # zstd, lz4 without a level: the adaptive level
		one $c-writer0 ${c%%:*} --compress=$c --writer-ring=0
		one $c-default ${c%%:*} --compress=$c
	done
done
rm -f t/before.out t/after.out
