#!/bin/sh
#
# bench/cpu.sh's figures come from its CSV alone (CPU_FROM): each
# thread's CPU time at the end less its time when the capture was ready,
# over the packets captured; a thread started after that counts whole;
# the whole life beside it; the ratios against issue #42's targets from
# the figures since ready, and B and C over whole lives.  A CSV of an
# older cpu.sh, with no reading at ready, gives whole lives for both.  A
# made-up CSV, so the right answers are known; nothing is run, no root
# is needed.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd bash awk

HEAD=batch,variant,config,type,secs,rep,rate,sent,pps,captured,dropped
HEAD=$HEAD,ring_dropped,load1,capture_ns,writer_ns,other_ns,process_ns
HEAD=$HEAD,process_ticks_ms,threads
# row VARIANT CONFIG "THREADS AT THE END" ["THREADS AT READY"]: 1,000
# 64-byte packets captured in a 1-s run.
row() {
	printf '1,%s,%s,fixed64,1,1,200000,1000,200000,1000,0,0,0.1,,,,,4,%s' \
	    "$1" "$2" "$3"
	[ $# -lt 4 ] || printf ',%s,,' "$4"
	echo
}

# report DIR: cpu.sh on DIR/cpu.csv into DIR/out, as one check.
report() {
	mkdir -p "$1/out"
	if SLUICE_BUILDDIR=$SLUICE_BUILDDIR BENCH_MODE=full \
	    BENCH_OUT=$1/out CPU_FROM=$1/cpu.csv CPU_TYPES=fixed64 \
	    CPU_SECS=1 CPU_REPS=1 CPU_CONFIGS="stock plain plain-8m" \
	    bash "$SLUICE_SRCDIR/bench/cpu.sh" >"$1/log" 2>&1; then
		t_ok "cpu.sh with CPU_FROM exits 0 ($(basename "$1"))"
	else
		t_fail "cpu.sh with CPU_FROM ($(basename "$1"))"
		tail -20 "$1/log" | sed 's/^/#   /'
		t_done
	fi
}

# point DIR VARIANT CONFIG FIELD: one field of DIR's cpu-points.csv.
point() {
	awk -F, -v k="$2,$3,fixed64,1" -v f="$4" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    $1 "," $2 "," $3 "," $4 == k { print $col[f] }' \
	    "$1/out/cpu-points.csv"
}

# Stock: 1 ms at ready, 5 at the end: 4 us a packet, 5 over its life.
# Plain: the capture thread 1.4 ms at ready, 3.0 at the end (1.6 us a
# packet, 3.0 over its life), the writer 0.1 and 1.5 (1.4 us).  Plain
# with 8 MiB: the capture thread 1.6 us a packet again, and a helper
# that started after ready, 0.5 ms, counted whole.
new=$TMPDIR/new
mkdir -p "$new"
{
	echo "$HEAD,threads_at_ready,capture_life_ns,process_life_ns"
	row - stock "100 tcpdump 5000000;" "100 tcpdump 1000000;"
	row ours plain "200 tcpdump 3000000;201 pcap-writer 1500000;" \
	    "200 tcpdump 1400000;201 pcap-writer 100000;"
	row ours plain-8m \
	    "300 tcpdump 2800000;301 pcap-writer 1200000;302 pcap-compress 500000;" \
	    "300 tcpdump 1200000;301 pcap-writer 0;"
} >"$new/cpu.csv"
report "$new"
t_expect_eq "stock's process from ready, us/packet" 4.0000 \
    "$(point "$new" - stock process_us_med)"
t_expect_eq "stock's process over its life" 5.0000 \
    "$(point "$new" - stock process_life_us_med)"
t_expect_eq "the capture thread from ready" 1.6000 \
    "$(point "$new" ours plain capture_us_med)"
t_expect_eq "the writer from ready" 1.4000 \
    "$(point "$new" ours plain writer_us_med)"
t_expect_eq "the process from ready" 3.0000 \
    "$(point "$new" ours plain process_us_med)"
t_expect_eq "the capture thread over its life" 3.0000 \
    "$(point "$new" ours plain capture_life_us_med)"
t_expect_eq "the process over its life" 4.5000 \
    "$(point "$new" ours plain process_life_us_med)"
t_expect_eq "a thread started after ready counts whole" 0.5000 \
    "$(point "$new" ours plain-8m other_us_med)"
t_check "A 1.00, B 0.40 and C 0.75, each met" grep -q \
    '^| ours | fixed64 | 1 | 1.00 (met) | n/a | 0.40 (met) | 0.75 (met) | n/a |$' \
    "$new/out/cpu.md"
t_check "B 0.60 and C 0.90 over whole lives" grep -q \
    '^| ours | fixed64 | 1 | 0.60 | 0.90 |$' "$new/out/cpu.md"

# An older cpu.sh's CSV: no reading at ready, so from ready is the
# whole life (B = 3.0 / 5.0, not met).
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
t_check "B 0.60, not met" grep -q \
    '^| ours | fixed64 | 1 | 1.00 (met) | n/a | \*\*0.60 (not met)\*\* | \*\*0.90 (not met)\*\* | n/a |$' \
    "$old/out/cpu.md"
t_done
