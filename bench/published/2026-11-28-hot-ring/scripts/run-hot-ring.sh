#!/bin/sh
# The measurement as run on 2026-11-28: one tcpdump (the same binary in
# both trees) against the libpcap of 7606601 (before) and 4936a2f (after),
# stock tcpdump 4.99.6 on stock libpcap 1.10.5; copies in /var/tmp/hot-ring-bench.
S=/var/tmp/hot-ring-bench
cd /tmp/wt-bench && exec env SLUICE_BUILDDIR=/tmp/bench-before/_build \
  TD_STOCK=$S/stock/tcpdump LIB_STOCK=$S/stock/lib \
  TD_OURS=$S/before/tcpdump LIB_OURS=$S/before/lib \
  INC_OURS=/tmp/bench-before/_build/stage/usr/local/include \
  SLUICE_GEN=/tmp/bench-before/_build/tools/sluice-gen \
  SLUICE_SEQCHECK=/tmp/bench-before/_build/tools/sluice-seqcheck \
  SLUICE_SLOWSINK=/tmp/bench-before/_build/tools/slowsink \
  BENCH_MODE=full BENCH_OUT=$S/full \
  CPU_VARIANTS="before=$S/before/lib after=$S/after/lib" \
  CPU_QUIET_MAX=480 \
  bash bench/cpu.sh
