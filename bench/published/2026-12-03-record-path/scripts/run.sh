#!/bin/sh
# The measurement as run on 2026-12-03: our tcpdump against the libpcap
# of 89e970b (before) and of the record-path change (after), copies in
# /var/tmp/hb2/{before,final}; stock tcpdump 4.99.6 on stock libpcap
# 1.10.5 from "make build-stock".  First the instruction counts
# (instructions.sh, callgrind), then bench/cpu.sh: 1-s captures of
# 64-byte and HTTP frames, 9 repetitions, then 25-s captures of 64-byte
# frames, 3 repetitions; every run of one repetition interleaved.
cd /work/main/_build || exit 1
S=$(dirname "$0")
for v in before final; do
	sh "$S/instructions.sh" /var/tmp/hb2/$v /var/tmp/hb2/cg-$v
	sh "$S/instructions.sh" /var/tmp/hb2/$v /var/tmp/hb2/cgd-$v \
	    --toggle-collect=pcap_dump
done
cd /work/main || exit 1
V="before=/var/tmp/hb2/before after=/var/tmp/hb2/final"
env SLUICE_BUILDDIR=/work/main/_build CPU_LIMIT=1800 CPU_QUIET_MAX=60 \
  CPU_RATE=200000 CPU_REPS=9 CPU_TYPES="fixed64 http" CPU_SECS=1 \
  CPU_CONFIGS="stock plain plain-8m compress compress-8m" \
  CPU_VARIANTS="$V" bash bench/run --quick --only cpu \
  --builddir /work/main/_build --out /var/tmp/hb2/run-1s
env SLUICE_BUILDDIR=/work/main/_build CPU_LIMIT=1800 CPU_QUIET_MAX=60 \
  CPU_RATE=200000 CPU_REPS=3 CPU_TYPES=fixed64 CPU_SECS=25 \
  CPU_CONFIGS="stock plain plain-8m" \
  CPU_VARIANTS="$V" bash bench/run --quick --only cpu \
  --builddir /work/main/_build --out /var/tmp/hb2/run-25s
