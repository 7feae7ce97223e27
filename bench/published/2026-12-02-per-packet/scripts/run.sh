#!/bin/sh
# The measurement as run on 2026-12-02, 15:00 to 15:40 UTC: bench/cpu.sh
# and bench/lib.sh as in 6ff9192; our tcpdump (md5 f3e96e66...) against
# the libpcap of 75bfe15 (before, md5 79efac0f...) and of 7f817c4 (after,
# md5 b77bed71...), copies in /var/tmp/hb/{before,after}; stock tcpdump
# 4.99.6 on stock libpcap 1.10.5 from "make build-stock".
cd /work/main || exit 1
V="before=/var/tmp/hb/before after=/var/tmp/hb/after"
env SLUICE_BUILDDIR=/work/main/_build CPU_QUIET_MAX=120 CPU_BROWN=0 \
  CPU_VARIANTS="$V" bash bench/run --full --only cpu \
  --builddir /work/main/_build --out /var/tmp/hb/ready
env SLUICE_BUILDDIR=/work/main/_build CPU_QUIET_MAX=120 CPU_RATE=200000 \
  CPU_REPS=9 CPU_TYPES=fixed64 CPU_SECS=1 CPU_CONFIGS="stock plain plain-8m" \
  CPU_VARIANTS="$V" bash bench/run --quick --only cpu \
  --builddir /work/main/_build --out /var/tmp/hb/ready64
bash "$(dirname "$0")/window.sh" 5 > /var/tmp/hb/window.csv
