#!/bin/bash
# Sustained 4 MB/s, before (16e8d74) and after (b9e8f57), same machine, one session.
set -u
cd /work/main
OUT=/tmp/perf6/out
mkdir -p $OUT
date -u > $OUT/start
uptime > $OUT/uptime-start
SUSTAINED_SINKS=slow4 SUSTAINED_CONFIGS="ours-zstd+w stock+zstd stock+zstd-adapt" \
  TD_OURS=/tmp/perf6/after/tcpdump LIB_OURS=/tmp/perf6/after/lib INC_OURS=/tmp/perf6/after/include \
  bench/run --full --only sustained --out $OUT/sustained-after > $OUT/sustained-after.stdout 2>&1
uptime > $OUT/uptime-mid
SUSTAINED_SINKS=slow4 SUSTAINED_CONFIGS="ours-zstd+w" \
  TD_OURS=/tmp/perf/before/tcpdump LIB_OURS=/tmp/perf/before/lib INC_OURS=/tmp/perf/before/include \
  bench/run --full --only sustained --out $OUT/sustained-before > $OUT/sustained-before.stdout 2>&1
uptime > $OUT/uptime-end
date -u > $OUT/end
