#!/bin/sh
#
# A smoke test of bench/: the offline codec experiment runs through the
# real driver and produces its report, table and plots.  Speed is never
# checked here; "make bench-quick" and "make bench" measure.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd bash gnuplot

out=$TMPDIR/bench
if SLUICE_BUILDDIR=$SLUICE_BUILDDIR bash "$SLUICE_SRCDIR/bench/run" --quick \
    --only codec --out "$out" >"$TMPDIR/run.log" 2>&1; then
	t_ok "bench/run --quick --only codec exits 0"
else
	t_fail "bench/run --quick --only codec"
	tail -20 "$TMPDIR/run.log" | sed 's/^/#   /'
	t_done
fi
t_check "the report has the codec rows of the headline table" \
    grep -q '^| codec @32KiB, http | lz4 [0-9.]* MB/s r=0\.[0-9]*' "$out/report.md"
t_check "the report names the machine and both builds" \
    grep -q "Stock: tcpdump version $SLUICE_TCPDUMP_VERSION" "$out/report.md"
for png in codec-throughput.png codec-ratio.png; do
	t_check "$png is a PNG image" sh -c "head -c 8 '$out/$png' | od -An -c | grep -q 'P   N   G'"
done
t_done
