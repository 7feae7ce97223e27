#!/bin/sh
# Sustained HTTP into a 4 MB/s sink (bench/sustained.sh as in 7f817c4),
# the same tcpdump binary against the libpcap after (7f817c4) with both
# peers, then before (75bfe15), one session.
B=/work/main/_build
cd /work/main || exit 1
SUSTAINED_SINKS=slow4 SUSTAINED_CONFIGS="ours-zstd+w stock+zstd stock+zstd-adapt" \
  SLUICE_BUILDDIR=$B TD_OURS=$B/obj/tcpdump/tcpdump LIB_OURS=/var/tmp/hb/after \
  INC_OURS=$B/stage/usr/local/include \
  bash bench/run --full --only sustained --builddir $B --out /var/tmp/hb/sus-after
SUSTAINED_SINKS=slow4 SUSTAINED_CONFIGS="ours-zstd+w" \
  SLUICE_BUILDDIR=$B TD_OURS=$B/obj/tcpdump/tcpdump LIB_OURS=/var/tmp/hb/before \
  INC_OURS=/var/tmp/before/_build/stage/usr/local/include \
  bash bench/run --full --only sustained --builddir $B --out /var/tmp/hb/sus-before
