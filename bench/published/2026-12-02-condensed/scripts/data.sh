#!/bin/bash
# Inputs (05:09-05:12 UTC, under nice -n 19), in /tmp/perf5/data.
cd /tmp/perf5/data
gcc -g -O2 -Wall -Wextra -pthread -o /tmp/perf5/tools/sluice-gen /work/main/tests/gen/sluice-gen.c /work/main/tests/gen/erspan-craft.c
bash /tmp/perf5/scripts/rec-trace.sh        # http-real.pcap: 20,000 frames of real HTTP (nginx + wrk)
/tmp/perf5/tools/sluice-gen --replay http-real.pcap --count 100000 --seed 9 --out httpreal100k.pcap
/tmp/perf5/tools/sluice-gen --type http --count 400000 --seed 9 --out http400k.pcap
/tmp/perf5/tools/sluice-gen --type http --count 40000 --seed 9 --out http40k.pcap     # (05:36, for cg-40k.sh)
# the compressed files read back in the read-* cases, written by the after tcpdump, no writer thread:
for c in zstd:-1 lz4:1 gzip:1; do
	LD_LIBRARY_PATH=/tmp/perf5/after/lib /tmp/perf5/after/tcpdump -r httpreal100k.pcap -w real100k.${c%%:*} --compress=$c --writer-ring=0
done
