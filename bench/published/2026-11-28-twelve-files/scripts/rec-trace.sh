#!/bin/bash
# Record the real HTTP trace with bench/lib.sh's bench_http_trace, all outputs under /tmp/perf.
export BENCH_DIR=/work/main/bench SLUICE_SRCDIR=/work/main SLUICE_BUILDDIR=/tmp/perf/nobuild
export BENCH_OUT=/tmp/perf/benchout BENCH_TOOLS=/tmp/perf/benchout/.tools BENCH_SCRATCH=/tmp/perf/scratch
export TD_STOCK=/tmp/base/_build/obj/stock-tcpdump/tcpdump LIB_STOCK=/tmp/base/_build/stage-stock/usr/local/lib
export TD_OURS=/tmp/perf/after/tcpdump LIB_OURS=/tmp/perf/after/lib INC_OURS=/tmp/perf/after/include
export SLUICE_GEN=/tmp/perf/tools/sluice-gen SLUICE_SEQCHECK=/tmp/perf/tools/sluice-seqcheck SLUICE_SLOWSINK=/bin/false
export HTTP_TRACE_CACHE=/tmp/perf/data/http-real.pcap
. /work/main/bench/lib.sh
bench_init || exit 1
bench_http_trace || { echo "no trace: $HTTP_TRACE_NA"; exit 1; }
echo "trace: $HTTP_TRACE"
