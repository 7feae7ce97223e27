#!/bin/sh
#
# bench/sustained.sh's report comes from its CSV alone
# (SUSTAINED_FROM): the bracket of each configuration by the median
# rule, runs in which the sender fell short of its rate left out (a run
# sent at 250k frames/s is no evidence of a maximum of 400k), and a
# configuration with no runs said to be not run; in the headline, a
# maximum that no rate tried reached (lossless at every rate) makes a
# ratio a bound, not a measurement.  A made-up CSV, so the
# right answers are known; nothing is run, no root is needed.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd bash awk

csv=$TMPDIR/in.csv
out=$TMPDIR/out
mkdir -p "$out"
# row PHASE CONFIG RATE PPS LOSS [SINK]
row() {
	echo "$1,http,${6:-slow20},$2,$3,4000000,4000000,$4,0,$5,0,0,"
}
{
	echo "phase,type,sink,config,rate,frames,sent,pps,got,loss_pct,td_captured,td_dropped,levels"
	# lossless at 100k and 200k (one run of 3 lost: the median is 0);
	# at 400k the sender made only 250k: those runs must not count.
	for l in 0 0 0; do row sweep ours-zstd+w 100000 100000 "$l"; done
	for l in 0 1.5 0; do row sweep ours-zstd+w 200000 199000 "$l"; done
	for l in 0 0 0; do row sweep ours-zstd+w 400000 250000 "$l"; done
	# lossless at 50k; lossy at 100k, and at 70k in 2 runs of 3.
	for l in 0 0 0; do row sweep stock 50000 50000 "$l"; done
	for l in 5 5 5; do row sweep stock 100000 100000 "$l"; done
	for l in 0 2 3; do row bisect stock 70000 70000 "$l"; done
	# sent far too slowly, every run.
	for l in 0 0 0; do row sweep stock+lz4 300000 100000 "$l"; done
	# Into slow60: the adaptive writer lossless at 100k, lossy at
	# 200k; the pipe into lz4 lossless at the one rate it was run at,
	# 150k, so its maximum may be anywhere above; the pipe into zstd
	# lossless at 150k too, but lossy at 200k, so the pipe into lz4 is
	# the better; stock lossy at 100k, the only rate it was run at.
	for l in 0 0 0; do row sweep ours-zstd+w 100000 100000 "$l" slow60; done
	for l in 2 2 2; do row sweep ours-zstd+w 200000 200000 "$l" slow60; done
	for l in 0 0 0; do row sweep stock+zstd 150000 150000 "$l" slow60; done
	for l in 3 3 3; do row sweep stock+zstd 200000 200000 "$l" slow60; done
	for l in 0 0 0; do row sweep stock+lz4 150000 150000 "$l" slow60; done
	for l in 9 9 9; do row sweep stock 100000 100000 "$l" slow60; done
	# Into the file: the adaptive writer and the pipe both lossless at
	# 230k, the fastest rate tried; zstd:4 lossy above 100k.
	for l in 0 0 0; do row sweep ours-zstd+w 230000 230000 "$l" file; done
	for l in 0 0 0; do row sweep stock+zstd 230000 230000 "$l" file; done
	for l in 0 0 0; do row sweep ours-zstd:4+w 100000 100000 "$l" file; done
	for l in 1 1 1; do row sweep ours-zstd:4+w 200000 200000 "$l" file; done
} >"$csv"

if SLUICE_BUILDDIR=$SLUICE_BUILDDIR BENCH_MODE=full BENCH_OUT=$out \
    SUSTAINED_FROM=$csv SUSTAINED_TYPES=http \
    SUSTAINED_SINKS="slow20 slow60 file" \
    SUSTAINED_CONFIGS="ours-zstd+w ours-zstd:4+w stock stock+zstd stock+lz4" \
    bash "$SLUICE_SRCDIR/bench/sustained.sh" >"$TMPDIR/log" 2>&1; then
	t_ok "sustained.sh with SUSTAINED_FROM exits 0"
else
	t_fail "sustained.sh with SUSTAINED_FROM"
	sed 's/^/#   /' "$TMPDIR/log" | tail -20
	t_done
fi
md=$out/sustained.md
t_check "the CSV is the report's raw data, unchanged" cmp "$csv" "$out/sustained.csv"
t_check "runs the sender did not keep up with do not count: the adaptive writer is lossless up to 200k, with no upper bound" \
    grep -q '^| ours-zstd+w | >= 200000 | ' "$md"
t_check "the median rule: 70k lost in 2 of 3 runs is lossy" \
    grep -q '^| stock | 50000 (< 70000) | 19 | 4000000 |' "$md"
t_check "a configuration without runs is not run" \
    grep -q '^| stock+zstd | n/a: not run |' "$md"
t_check "a configuration none of whose runs counts says so" \
    grep -q '^| stock+lz4 | n/a: no run that counts' "$md"
t_check "the report says how many runs fell short and how fast the sender went" \
    grep -q '^(6 runs here did not; the fastest the sender went was$' "$md"
t_check "and that nothing was run for it" \
    grep -q 'nothing was run for it' "$md"
# The headline: a bracket open above makes a ratio a bound.
t_expect_eq "the headline: an open maximum against stock's is a lower bound" \
    "sustained http -> slow20, max lossless frames/s|adaptive >= 200000; x>=4.00 stock (50000)" \
    "$(sed -n 1p "$out/sustained.headline")"
t_expect_eq "the headline: against an open maximum, an upper bound; of two peers as fast, the one that lost at no rate; no ratio to a writer lossy at every rate" \
    "sustained http -> slow60, max lossless frames/s|adaptive 100000 (< 200000); x<=0.67 the best peer (stock+lz4 >= 150000); stock lossy at every rate tried (< 100000)" \
    "$(sed -n 2p "$out/sustained.headline")"
t_expect_eq "the headline: two open maxima are not a ratio" \
    "sustained http -> file, max lossless frames/s|adaptive >= 230000; the best peer as well (stock+zstd >= 230000; neither lost at any rate tried); x>=2.30 our best fixed level (zstd:4+w 100000)" \
    "$(sed -n 3p "$out/sustained.headline")"
t_check "the headline has a line per sink and no more" \
    test "$(wc -l <"$out/sustained.headline")" = 3

if SLUICE_BUILDDIR=$SLUICE_BUILDDIR BENCH_MODE=full BENCH_OUT=$out \
    SUSTAINED_FROM=$TMPDIR/missing.csv \
    bash "$SLUICE_SRCDIR/bench/sustained.sh" >"$TMPDIR/log" 2>&1; then
	t_fail "a missing CSV is refused"
else
	t_check "a missing CSV is refused, with its name" \
	    grep -q "missing.csv: no such CSV" "$TMPDIR/log"
fi

t_done
