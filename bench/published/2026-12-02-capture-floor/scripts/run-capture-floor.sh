#!/bin/sh
# The measurement as run on 2026-12-02: our tcpdump (the same binary,
# md5 f3e96e66..., in both trees) against the libpcap of 75bfe15 (before)
# and of 7f817c4 (after: f4b9a87 and its review), and stock tcpdump
# 4.99.6 on stock libpcap 1.10.5, built by "make build-stock" in the
# after tree.  Copies of the two libpcap.so in /var/tmp/hb/{before,after}.
# bench/cpu.sh and bench/lib.sh as they are in 7f817c4.
cd /work/main && env SLUICE_BUILDDIR=/work/main/_build CPU_QUIET_MAX=120 \
  CPU_VARIANTS="before=/var/tmp/hb/before after=/var/tmp/hb/after" \
  bash bench/run --full --only cpu --builddir /work/main/_build \
  --out /var/tmp/hb/full
# Then the start-up cost of each: the same command line with no frames.
sh "$(dirname "$0")/idle.sh" 2.5 3 > /var/tmp/hb/idle.csv
