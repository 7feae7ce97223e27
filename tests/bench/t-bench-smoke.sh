#!/bin/sh
#
# A smoke test of bench/: the offline codec experiment runs through the
# real driver and produces its report, table and plots.  Speed is never
# checked here; "make bench-quick" and "make bench" measure.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/bench/lib-bench.sh"

need_cmd bash gnuplot

out=$TMPDIR/bench
# The HTTP trace is cached here, not in the source tree's bench/results.
HTTP_TRACE_CACHE=$TMPDIR/http-real.pcap
HTTP_TRACE_FRAMES=2000
export HTTP_TRACE_CACHE HTTP_TRACE_FRAMES
bench_quick codec "$out"
t_check "the report has the codec rows of the headline table" \
    grep -q '^| codec @32KiB, http | lz4 [0-9.]* MB/s r=0\.[0-9]*' "$out/report.md"
t_check "the report names the machine and both builds" \
    grep -q "Stock: tcpdump version $SLUICE_TCPDUMP_VERSION" "$out/report.md"
# The real HTTP trace is a column of Table 1 when it can be recorded here.
if [ "$(id -u)" = 0 ] && command -v nginx >/dev/null 2>&1 &&
    command -v wrk >/dev/null 2>&1; then
	t_check "the ratio table has the real HTTP trace's column" \
	    grep -q '^| codec | fixed64 | .* | http | http-real |$' "$out/report.md"
	t_expect_eq "the lz4 ratio row has 7 values, the trace's included" 10 \
	    "$(awk -F'|' '/^\| lz4 \| 0\.[0-9]* \|/ { print NF; exit }' "$out/report.md")"
	t_check "the report says what the trace is" \
	    grep -q "^http-real: a real HTTP trace, 2000 frames" "$out/report.md"
else
	t_check "without root, nginx or wrk the trace is n/a, and why" \
	    grep -q '^http-real: n/a (' "$out/report.md"
fi
for png in codec-throughput.png codec-ratio.png; do
	t_check "$png is a PNG image" sh -c "head -c 8 '$out/$png' | od -An -c | grep -q 'P   N   G'"
done
t_done
