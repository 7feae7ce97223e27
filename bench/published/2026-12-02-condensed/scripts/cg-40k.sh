#!/bin/bash
# Extra: the earlier runs' synthetic input (http40k.pcap, sluice-gen --type http --count 40000 --seed 9),
# zstd:-1 and lz4:1 without writer, plain -w; callgrind, before and after side by side; nice -n 19.
cd /tmp/perf5
mkdir -p cg/h40k out
declare -A DIR=([before]=/tmp/perf5/before [after]=/tmp/perf5/after)
for c in "plain|" "zstdm1-nowriter|--compress=zstd:-1 --writer-ring=0" "lz41-nowriter|--compress=lz4:1 --writer-ring=0"; do
	n=${c%%|*}; o=${c#*|}
	for v in before after; do d=${DIR[$v]}
		# shellcheck disable=SC2086
		LD_LIBRARY_PATH=$d/lib valgrind --tool=callgrind --callgrind-out-file=cg/h40k/$n-$v.cg $d/tcpdump -r data/http40k.pcap -w out/h40k-$v $o >cg/h40k/$n-$v.log 2>&1 &
	done; wait
	for v in before after; do echo "http40k $n $v $(grep '^summary:' cg/h40k/$n-$v.cg | awk '{print $2}') $(md5sum < out/h40k-$v | cut -c1-12) $(stat -c %s out/h40k-$v)"; done
done | tee cg/h40k/summary.txt
rm -f out/h40k-*
