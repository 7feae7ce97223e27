#!/bin/sh
#
# bench/sustained.sh's report comes from its CSV alone
# (SUSTAINED_FROM): the bracket of each configuration by the median
# rule, runs in which the sender fell short of its rate left out (a run
# sent at 250k frames/s is no evidence of a maximum of 400k), and a
# configuration with no runs said to be not run.  A made-up CSV, so the
# right answers are known; nothing is run, no root is needed.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd bash awk

csv=$TMPDIR/in.csv
out=$TMPDIR/out
mkdir -p "$out"
# row PHASE CONFIG RATE PPS LOSS
row() {
	echo "$1,http,slow20,$2,$3,4000000,4000000,$4,0,$5,0,0,"
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
} >"$csv"

if SLUICE_BUILDDIR=$SLUICE_BUILDDIR BENCH_MODE=full BENCH_OUT=$out \
    SUSTAINED_FROM=$csv SUSTAINED_TYPES=http SUSTAINED_SINKS=slow20 \
    SUSTAINED_CONFIGS="ours-zstd+w stock stock+zstd stock+lz4" \
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
t_expect_eq "the headline: the adaptive writer against stock" \
    "sustained http -> slow20, max lossless frames/s|adaptive >= 200000; x4.00 stock (50000)" \
    "$(cat "$out/sustained.headline")"

if SLUICE_BUILDDIR=$SLUICE_BUILDDIR BENCH_MODE=full BENCH_OUT=$out \
    SUSTAINED_FROM=$TMPDIR/missing.csv \
    bash "$SLUICE_SRCDIR/bench/sustained.sh" >"$TMPDIR/log" 2>&1; then
	t_fail "a missing CSV is refused"
else
	t_check "a missing CSV is refused, with its name" \
	    grep -q "missing.csv: no such CSV" "$TMPDIR/log"
fi

t_done
