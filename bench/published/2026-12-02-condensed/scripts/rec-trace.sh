#!/bin/bash
# Record a real HTTP trace with bench/lib.sh's bench_http_trace (nginx + wrk in a network namespace of
# its own, stock tcpdump on its loopback, 20,000 frames), all outputs under /tmp/perf5. Run under nice -n 19.
export BENCH_DIR=/work/main/bench SLUICE_SRCDIR=/work/main SLUICE_BUILDDIR=/work/main/_build
export BENCH_OUT=/tmp/perf5/benchout BENCH_TOOLS=/tmp/perf5/benchout/.tools BENCH_SCRATCH=/tmp/perf5/scratch
export TD_STOCK=/work/main/_build/obj/stock-tcpdump/tcpdump LIB_STOCK=/work/main/_build/stage-stock/usr/local/lib
export TD_OURS=/tmp/perf5/after/tcpdump LIB_OURS=/tmp/perf5/after/lib
export SLUICE_GEN=/tmp/perf5/tools/sluice-gen SLUICE_SLOWSINK=/bin/false
export HTTP_TRACE_CACHE=/tmp/perf5/data/http-real.pcap
. /work/main/bench/lib.sh
bench_init || exit 1
bench_http_trace || { echo "no trace: $HTTP_TRACE_NA"; exit 1; }
echo "trace: $HTTP_TRACE"
