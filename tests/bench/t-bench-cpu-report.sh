#!/bin/sh
#
# bench/cpu.sh's figures come from its CSV alone (CPU_FROM): each
# thread's CPU time at the end less its time when the capture was ready,
# matched by thread id, over the packets captured; a thread started after
# that counts whole, one gone by the end not at all; the whole life
# beside it; the ratios against issue #42's targets from the figures
# since ready, and B and C over whole lives.  A run with no reading at
# ready, or one in which tcpdump had not counted every frame when the
# times were read, is left out.  A CSV of an older cpu.sh, with no
# reading at ready, gives whole lives for both, and the report says so;
# re-reporting a run's own cpu.csv keeps it.  Made-up CSVs, so the right
# answers are known; nothing is run, no root is needed.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd bash awk

HEAD=batch,variant,config,type,secs,rep,rate,sent,pps,captured,dropped
HEAD=$HEAD,ring_dropped,load1,capture_ns,writer_ns,other_ns,process_ns
HEAD=$HEAD,process_ticks_ms,threads
# row VARIANT CONFIG "THREADS AT THE END" ["THREADS AT READY" [COUNTED]]:
# 1,000 64-byte packets captured in a 1-s run.
row() {
	printf '1,%s,%s,fixed64,1,1,200000,1000,200000,1000,0,0,0.1,,,,,4,%s' \
	    "$1" "$2" "$3"
	[ $# -lt 4 ] || printf ',%s,%s,,' "$4" "${5:-1}"
	echo
}

# report DIR [CSV]: cpu.sh on CSV (DIR/cpu.csv) into DIR/out, as one
# check.
report() {
	mkdir -p "$1/out"
	if SLUICE_BUILDDIR=$SLUICE_BUILDDIR BENCH_MODE=full \
	    BENCH_OUT=$1/out CPU_FROM=${2:-$1/cpu.csv} CPU_TYPES=fixed64 \
	    CPU_SECS=1 CPU_REPS=1 CPU_CONFIGS="stock plain plain-8m" \
	    bash "$SLUICE_SRCDIR/bench/cpu.sh" >"$1/log" 2>&1; then
		t_ok "cpu.sh with CPU_FROM exits 0 ($(basename "$1"))"
	else
		t_fail "cpu.sh with CPU_FROM ($(basename "$1"))"
		tail -20 "$1/log" | sed 's/^/#   /'
		t_done
	fi
}

# point DIR VARIANT CONFIG FIELD: one field of DIR's cpu-points.csv
# (nothing if the point has no run).
point() {
	awk -F, -v k="$2,$3,fixed64,1" -v f="$4" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    $1 "," $2 "," $3 "," $4 == k { print $col[f] }' \
	    "$1/out/cpu-points.csv"
}

# Stock: 1 ms at ready, 5 at the end: 4 us a packet, 5 over its life.
# Plain: the capture thread 1.56 ms at ready, 3.0 at the end (1.44 us a
# packet, 3.0 over its life), the writer 0.1 and 1.7 (1.6 us), listed
# first at ready; a thread of the start-up, gone by the end, counts
# nowhere.  Plain with 8 MiB: the capture thread 1.6 us a packet, and a
# helper that started after ready, 0.5 ms, counted whole.  A second
# variant: one run with no reading at ready, one whose tcpdump had not
# counted every frame; neither is a point.
new=$TMPDIR/new
mkdir -p "$new"
{
	echo "$HEAD,threads_at_ready,counted_at_reading,capture_life_ns,process_life_ns"
	row - stock "100 tcpdump 5000000;" "100 tcpdump 1000000;"
	row ours plain "200 tcpdump 3000000;201 pcap-writer 1700000;" \
	    "201 pcap-writer 100000;200 tcpdump 1560000;199 tcpdump 900000;"
	row ours plain-8m \
	    "300 tcpdump 2800000;301 pcap-writer 1200000;302 pcap-compress 500000;" \
	    "300 tcpdump 1200000;301 pcap-writer 0;"
	row late plain "400 tcpdump 3000000;401 pcap-writer 1500000;" ""
	row late plain-8m "500 tcpdump 3000000;" "500 tcpdump 1000000;" 0
} >"$new/cpu.csv"
report "$new"
t_expect_eq "stock's process from ready, us/packet" 4.0000 \
    "$(point "$new" - stock process_us_med)"
t_expect_eq "stock's process over its life" 5.0000 \
    "$(point "$new" - stock process_life_us_med)"
t_expect_eq "the capture thread from ready" 1.4400 \
    "$(point "$new" ours plain capture_us_med)"
t_expect_eq "the writer from ready" 1.6000 \
    "$(point "$new" ours plain writer_us_med)"
t_expect_eq "the process from ready" 3.0400 \
    "$(point "$new" ours plain process_us_med)"
t_expect_eq "the capture thread over its life" 3.0000 \
    "$(point "$new" ours plain capture_life_us_med)"
t_expect_eq "the process over its life" 4.7000 \
    "$(point "$new" ours plain process_life_us_med)"
t_expect_eq "a thread started after ready counts whole" 0.5000 \
    "$(point "$new" ours plain-8m other_us_med)"
t_expect_eq "no reading at ready: no point" "" \
    "$(point "$new" late plain runs)"
t_expect_eq "not every frame counted: no point" "" \
    "$(point "$new" late plain-8m runs)"
t_check "A 0.90, B 0.36 and C 0.76, each met" grep -q \
    '^| ours | fixed64 | 1 | 0.90 (met) | n/a | 0.36 (met) | 0.76 (met) | n/a |' \
    "$new/out/cpu.md"
t_check "B 0.60 and C 0.94 over whole lives" grep -q \
    '^| ours | fixed64 | 1 | .* | 0.60 | 0.94 |$' "$new/out/cpu.md"
t_check "the report counts the run left out" grep -q \
    'when the times were read: 1\.' "$new/out/cpu.md"

# The same CSV re-reported from the run's own directory stays whole.
cp "$new/cpu.csv" "$new/out/cpu.csv"
lines=$(wc -l <"$new/out/cpu.csv")
report "$new" "$new/out/cpu.csv"
t_expect_eq "re-reporting a run's own cpu.csv keeps its rows" "$lines" \
    "$(wc -l <"$new/out/cpu.csv")"
t_expect_eq "and its figures" 1.4400 \
    "$(point "$new" ours plain capture_us_med)"

# An older cpu.sh's CSV: no reading at ready, so from ready is the
# whole life (B = 3.0 / 5.0, not met), and the report says so.
old=$TMPDIR/old
mkdir -p "$old"
{
	echo "$HEAD"
	row - stock "100 tcpdump 5000000;"
	row ours plain "200 tcpdump 3000000;201 pcap-writer 1500000;"
	row ours plain-8m "300 tcpdump 3000000;301 pcap-writer 1200000;"
} >"$old/cpu.csv"
report "$old"
t_expect_eq "no reading at ready: the capture thread's whole life" 3.0000 \
    "$(point "$old" ours plain capture_us_med)"
t_expect_eq "and its whole life beside it" 3.0000 \
    "$(point "$old" ours plain capture_life_us_med)"
t_check "B 0.60 and C 0.90, not met" grep -q \
    '^| ours | fixed64 | 1 | 1.00 (met) | n/a | \*\*0.60 (not met)\*\* | \*\*0.90 (not met)\*\* | n/a | 0.60 | 0.90 |$' \
    "$old/out/cpu.md"
t_check "the report says the figures are whole lives" grep -q \
    'over whole lives (these runs have no reading at ready)' \
    "$old/out/cpu.md"
t_done
