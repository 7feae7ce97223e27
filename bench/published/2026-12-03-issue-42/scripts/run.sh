#!/bin/sh
# The runs of 2026-12-03 afternoon, one after the other on a quiet
# machine, from /work/main at 74f08d8 (libpcap.so md5 35ec8759..., the
# same file as the "after" of ../2026-12-03-record-path; tcpdump md5
# f3e96e66...).  First a trial of waking the writer every 256 KiB
# instead of 64 KiB (WRITER_WAKE_BYTES in libpcap/sf-writer.c, built
# into a copy of the library; not kept), then issue #42's experiment as
# bench/cpu.sh runs it in full mode (3 repetitions, 64-byte and HTTP
# frames, 1-s and 25-s captures, every configuration, Brown's method),
# then the sustained 4 MB/s experiment against both pipes.
cd /work/main || exit 1
env SLUICE_BUILDDIR=/work/main/_build CPU_LIMIT=1500 CPU_QUIET_MAX=30 \
  CPU_RATE=200000 CPU_REPS=7 CPU_TYPES=fixed64 CPU_SECS=1 \
  CPU_CONFIGS="stock plain plain-8m" \
  CPU_VARIANTS="base=/var/tmp/hb3/base wake256=/var/tmp/hb3/wake256" \
  bash bench/run --quick --only cpu --builddir /work/main/_build \
  --out /var/tmp/hb3/run-1s
env SLUICE_BUILDDIR=/work/main/_build CPU_LIMIT=3000 CPU_QUIET_MAX=30 \
  bash bench/run --full --only cpu --builddir /work/main/_build \
  --out /var/tmp/hb4/cpu-full
env SLUICE_BUILDDIR=/work/main/_build SUSTAINED_SINKS=slow4 \
  SUSTAINED_CONFIGS="ours-zstd+w stock+zstd stock+zstd-adapt" \
  bash bench/run --full --only sustained --builddir /work/main/_build \
  --out /var/tmp/hb4/sustained
