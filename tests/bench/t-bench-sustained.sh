#!/bin/sh
#
# bench/sustained.sh runs through the real driver: a sustained run sends
# exactly the frames asked for, with the capture, the pipes' compressors
# and the sender pinned to the CPUs asked for, the report gives the
# adaptive writer's levels, and the plot of loss against the offered
# rate is drawn.  Speed is never checked; "make bench" measures.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/bench/lib-bench.sh"

need_root
need_cmd bash ip taskset zstd
if [ "$(nproc)" -lt 2 ]; then
	echo "1..0 # SKIP the capture and the sender need a CPU each"
	exit 77
fi

FRAMES=60000
out=$TMPDIR/bench
SUSTAINED_FRAMES=$FRAMES
SUSTAINED_RATES=50000
export SUSTAINED_FRAMES SUSTAINED_RATES
bench_quick sustained "$out"
csv=$out/sustained.csv
t_expect_eq "one run per configuration (adaptive ours, stock | zstd -1, stock | zstd --adapt)" 3 \
    "$(awk -F, 'NR > 1' "$csv" | wc -l)"
t_expect_eq "every run sent exactly the frames asked for" "$FRAMES $FRAMES $FRAMES" \
    "$(awk -F, 'NR > 1 { printf "%s%s", sep, $7; sep = " " }' "$csv")"
t_check "the adaptive writer's levels are in the CSV" \
    awk -F, '$4 == "ours-zstd+w" && $13 ~ /^(-?[0-9]+: [0-9]+|stored: [0-9]+)/ { f = 1 } END { exit !f }' "$csv"
last=$(($(nproc) - 1))
t_check "the capture ran on CPU $last only" \
    grep -q "taskset -c $last env LD_LIBRARY_PATH=.* -w -" "$out/commands.log"
t_check "zstd -1 ran on the capture's CPU" \
    grep -q "taskset -c $last zstd -1" "$out/commands.log"
t_check "zstd --adapt ran on the capture's CPU" \
    grep -q "taskset -c $last zstd --adapt" "$out/commands.log"
t_expect_eq "the plot of loss against the offered rate is a PNG" PNG \
    "$(head -c 4 "$out/sustained-slow20.png" 2>/dev/null | tail -c 3)"
t_check "the sender ran on the other CPUs" \
    grep -q "taskset -c 0-$((last - 1)) .*sluice-gen .*--count $FRAMES" "$out/commands.log"
t_check "the report has the table, with the levels for the adaptive writer" \
    grep -q '^| ours-zstd+w | .* | [0-9]* | [0-9]* | .*[0-9]: [0-9]' "$out/report.md"
# "x1.19 the best peer (stock+zstd 269000)", "the best peer as well
# (stock+zstd >= 200000; ...)": which, the one rate of the quick run
# decides.
t_check "the headline compares the adaptive writer with the best peer" \
    grep -Eq '^\| sustained http -> slow20, max lossless frames/s \| adaptive .* the best peer[a-z ]* \(stock\+zstd ' "$out/report.md"
t_done
