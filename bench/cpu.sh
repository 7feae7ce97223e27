#!/bin/bash
# bench/cpu.sh -- CPU per packet, per thread (issue #42): what the capture
# thread spends on each packet (it alone has to keep up with the kernel's
# ring), what the writer thread and the compression helpers spend, and
# the whole process, against stock tcpdump's whole process.
#
# The capture (-s 65535 -B 2048 -w FILE, a file in the page cache under
# BENCH_SCRATCH, removed after each run) runs pinned to one CPU with
# taskset (CPU_CAP_CPU, default the last one; its writer thread and
# helpers inherit that), the sender on the others (CPU_GEN_CPUS; on a
# veth pair its CPU also does the receive path, including the kernel's
# copy into the capture's ring).  Frames of each type of CPU_TYPES at
# CPU_RATE frames/s for each duration of CPU_SECS.  Once the last frame
# arrived more than 1.1 s ago (the kernel hands over a partly filled
# block after 1000 ms) and tcpdump's write count has stood still, the
# CPU time of every thread is read from /proc/PID/task/TID/schedstat (ns
# on CPU) and named by /proc/PID/task/TID/comm (the main thread is the
# capture thread; the writer is "pcap-writer").  tcpdump is not asked
# for its figures (SIGUSR1) before that, as each question costs its
# capture thread CPU time; it is asked once after, and a run in which it
# had not yet counted every frame it received is left out.  Then it gets
# SIGINT.  utime+stime of the process (/proc/PID/stat, CLK_TCK) is kept
# as a cross-check.  Each thread's time is also read once the capture
# says it is listening, before any frame is sent, and taken off: the
# per-packet figures count what the run cost, not the start-up, which is
# the same for stock and ours and includes the harness's own ip netns
# exec, taskset and env (they exec into the capture's process).  The
# whole life (of the threads alive at the end) is kept beside it.
# Per packet = over the packets tcpdump says it captured.
#
# Configurations (CPU_CONFIGS):
#	stock		stock tcpdump -w FILE
#	plain		our tcpdump -w FILE (a writer thread, default ring)
#	plain-8m	the same with --writer-ring=8m
#	compress	--compress (default ring)
#	compress-8m	--compress --writer-ring=8m
# Our tcpdump runs once per variant of CPU_VARIANTS, "LABEL=LIBDIR" or
# "LABEL=LIBDIR=TCPDUMP" (default: "ours=" our libpcap): the same
# tcpdump against two libpcaps measures a libpcap change, before and
# after, in one session, interleaved run by run.  CPU_REPS repetitions
# (a batch each: every duration, type and configuration); before
# each batch it waits, at most CPU_QUIET_MAX s,
# until the 1-minute load is under CPU_QUIET_LOAD and no make or cc1
# runs, and records the load it started at.
#
# Then (CPU_BROWN=1) Brown's method: fixed64 (one 64-byte frame, the
# same bytes every time) in CPU_BROWN_SECS-s bursts, the rate raised
# over CPU_BROWN_RATES until the first loss (frames sent minus tcpdump's
# captured; kernel drops and ring drops both count), then
# CPU_BROWN_STEPS bisection steps, one run per rate, for stock and
# "plain" of each variant: the maximum lossless rate, or, when the
# sender is the limit, the highest rate it reached and the loss there.
#
# CPU_FROM=FILE makes the report of an earlier run's cpu.csv and runs
# nothing; a cpu.csv from before the reading at ready gives whole lives.
#
# Outputs: cpu.csv (every run), cpu-points.csv (median, min, max per
# point), cpu-brown.csv, cpu.md, cpu.png (us/packet per thread, stacked,
# per configuration).

. "$(dirname "$0")/lib.sh"
bench_experiment cpu || exit 1

if [ "$BENCH_MODE" = quick ]; then
	: "${CPU_TYPES:=fixed64}"
	: "${CPU_SECS:=1}"
	: "${CPU_RATE:=50000}"
	: "${CPU_REPS:=1}"
	: "${CPU_CONFIGS:=stock plain plain-8m}"
	: "${CPU_QUIET_MAX:=0}"
	: "${CPU_BROWN:=0}"
else
	: "${CPU_TYPES:=fixed64 http}"
	: "${CPU_SECS:=1 25}"
	: "${CPU_RATE:=200000}"
	: "${CPU_REPS:=3}"
	: "${CPU_CONFIGS:=stock plain plain-8m compress compress-8m}"
	: "${CPU_QUIET_MAX:=0}"
	: "${CPU_BROWN:=1}"
fi
: "${CPU_QUIET_LOAD:=0.7}"
: "${CPU_VARIANTS:=ours=$LIB_OURS}"
: "${CPU_CAP_CPU:=$(($(nproc) - 1))}"
if [ -z "${CPU_GEN_CPUS:-}" ]; then
	CPU_GEN_CPUS=0
	[ "$(nproc)" -gt 2 ] && CPU_GEN_CPUS=0-$(($(nproc) - 2))
fi
: "${CPU_BROWN_RATES:=250000 500000 750000 1000000 1250000 1500000}"
: "${CPU_BROWN_SECS:=2}"
: "${CPU_BROWN_STEPS:=2}"

TITLE="CPU per packet, per thread (issue #42)"
na=$(live_na)
[ -n "${CPU_FROM:-}" ] && na=
if [ -n "$na" ]; then
	bench_na_report "$NAME" "$TITLE" "CPU per packet" "$na"
	exit 0
fi
if [ -z "${CPU_FROM:-}" ] && [ "$(nproc)" -lt 2 ]; then
	bench_na_report "$NAME" "$TITLE" "CPU per packet" "the capture and the sender need a CPU each"
	exit 0
fi
# CPU_FROM=FILE: the report of an earlier run's cpu.csv (and the
# cpu-brown.csv and cpu-batches.txt beside it), nothing run; the
# per-thread sums are recomputed from its threads column.
if [ -z "${CPU_FROM:-}" ]; then
	bench_live_setup || exit 1
fi

# cfg_capture CONFIG: capture_run's configuration for CONFIG.
cfg_capture() {
	case $1 in
	stock)		echo stock ;;
	plain)		echo "ours=" ;;
	plain-8m)	echo "ours=--writer-ring=8m" ;;
	compress)	echo "ours=--compress" ;;
	compress-8m)	echo "ours=--compress,--writer-ring=8m" ;;
	*)		echo "unknown" ;;
	esac
}

# use_variant LABEL: point LIB_OURS (and TD_OURS) at that variant's.
TD_OURS0=$TD_OURS
use_variant() {
	local v
	for v in $CPU_VARIANTS; do
		[ "${v%%=*}" = "$1" ] || continue
		v=${v#*=}
		LIB_OURS=${v%%=*}
		TD_OURS=$TD_OURS0
		[ "$v" != "$LIB_OURS" ] && TD_OURS=${v#*=}
		OURS_NO_WRITER_SET=
		return 0
	done
	return 1
}
VARIANTS=
for v in $CPU_VARIANTS; do
	VARIANTS="$VARIANTS${VARIANTS:+ }${v%%=*}"
done

# quiet_wait: wait (at most CPU_QUIET_MAX s) for a quiet machine; sets
# QUIET ("yes" or "no") and LOAD1 (the 1-minute load at the end).
quiet_wait() {
	local t0=$SECONDS busy
	while :; do
		LOAD1=$(cut -d' ' -f1 /proc/loadavg)
		busy=$(ps -eo comm= | grep -cE '^(make|cc1|cc1plus)$')
		if awk -v l="$LOAD1" -v m="$CPU_QUIET_LOAD" 'BEGIN { exit !(l < m) }' &&
		    [ "$busy" = 0 ]; then
			QUIET=yes
			return 0
		fi
		if [ $((SECONDS - t0)) -ge "$CPU_QUIET_MAX" ]; then
			QUIET=no
			log "cpu: not quiet after ${CPU_QUIET_MAX} s (load $LOAD1, $busy make/cc1): measuring anyway"
			return 0
		fi
		sleep 10
	done
}

# ring_dropped: the writer's drops of the last run (our tcpdump's
# "N packets dropped by writer (ring full)"), 0 when it printed none.
ring_dropped() {
	local d
	d=$(sed -n 's/^\([0-9]*\) packets\{0,1\} dropped by writer.*/\1/p' \
	    "$BENCH_SCRATCH/cap.err" 2>/dev/null | tail -1)
	echo "${d:-0}"
}

# one_run VARIANT CONFIG TYPE SECS RATE: a capture run with every
# thread's CPU; appends to CSV.
one_run() {
	local var=$1 cfg=$2 type=$3 secs=$4 rate=$5 rc
	[ "$var" != - ] && use_variant "$var"
	CR_THREADS=1 CR_NOCOUNT=1 CR_CPUS=$CPU_CAP_CPU CR_GEN_CPUS=$CPU_GEN_CPUS \
	    capture_run "$(cfg_capture "$cfg")" file "$type" "$rate" "$secs"
	rc=$?
	if [ "$rc" = 2 ]; then
		log "cpu $var $cfg: n/a: $CR_NA"
		NA[$var,$cfg]=$CR_NA
		return
	fi
	echo "$BATCH,$var,$cfg,$type,$secs,$REP,$rate,$CR_SENT,$CR_PPS,$CR_TDCAP,$CR_TDDROP,$(ring_dropped),$LOAD1,,,,,$CR_PROCMS,$CR_THREADCPU,$CR_THREADCPU_READY,$CR_COUNTED,," >>"$CSV"
	log "cpu $var $cfg $type ${secs}s rep $REP: sent $CR_SENT ($CR_PPS pps) captured $CR_TDCAP dropped $CR_TDDROP ring $(ring_dropped); ns at the end ($CR_THREADCPU), at ready ($CR_THREADCPU_READY); every frame counted then: $CR_COUNTED"
}

# capture_ns..process_ns: from ready; threads: "TID COMM NS;..." at the
# end, threads_at_ready the same at ready; counted_at_reading: 1 if
# tcpdump had counted every frame it received when they were read, 0 if
# not, na if it did not say.
CSV_HEAD=batch,variant,config,type,secs,rep,rate,sent,pps,captured,dropped
CSV_HEAD=$CSV_HEAD,ring_dropped,load1,capture_ns,writer_ns,other_ns,process_ns
CSV_HEAD=$CSV_HEAD,process_ticks_ms,threads,threads_at_ready,counted_at_reading
CSV_HEAD=$CSV_HEAD,capture_life_ns,process_life_ns
# CPU_FROM may be this run's own cpu.csv: read it before writing that.
if [ -n "${CPU_FROM:-}" ]; then
	cp "$CPU_FROM" "$CSV.in" || exit 1
else
	echo "$CSV_HEAD" >"$CSV"
fi
declare -A NA
BATCHLOG=
BATCH=0
REP=0
[ -n "${CPU_FROM:-}" ] && REP=$CPU_REPS
while [ "$REP" -lt "$CPU_REPS" ]; do
	REP=$((REP + 1))
	BATCH=$((BATCH + 1))
	quiet_wait
	BATCHLOG="$BATCHLOG- batch $BATCH (repetition $REP): started $(date -u +%H:%M:%S) UTC at 1-minute load $LOAD1, quiet: $QUIET
"
	printf '%s' "$BATCHLOG" >"$BENCH_OUT/cpu-batches.txt"
	log "cpu batch $BATCH: rep $REP, load $LOAD1, quiet $QUIET"
	for secs in $CPU_SECS; do
		for type in $CPU_TYPES; do
			for cfg in $CPU_CONFIGS; do
				if [ "$cfg" = stock ]; then
					one_run - stock "$type" "$secs" "$CPU_RATE"
					continue
				fi
				for var in $VARIANTS; do
					one_run "$var" "$cfg" "$type" "$secs" "$CPU_RATE"
				done
			done
		done
	done
done

# Per thread, from "TID COMM NS;..." at the end (threads) and at ready
# (threads_at_ready): capture = the first thread (the main one), writer =
# pcap-writer, other = the rest, process = all, each from ready, "na"
# where the reading at ready is missing or tcpdump had not counted every
# frame; and the capture thread and the process over their whole lives.
# Columns are found by name: a cpu.csv from before the reading at ready
# has neither column, and its figures are whole lives.
[ -z "${CPU_FROM:-}" ] && mv "$CSV" "$CSV.in"
awk -F, -v OFS=, -v head="$CSV_HEAD" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print head; next }
    { threads = $col["threads"]
      ready = ("threads_at_ready" in col) ? $col["threads_at_ready"] : ""
      counted = ("counted_at_reading" in col) ? $col["counted_at_reading"] : ""
      delete r; n = split(ready, t, ";")
      for (i = 1; i <= n; i++)
	if (split(t[i], f, " ") == 3) r[f[1]] = f[3]
      c = w = o = lc = lp = 0; n = split(threads, t, ";")
      for (i = 1; i <= n; i++) {
	if (split(t[i], f, " ") != 3) continue
	d = f[3] - r[f[1]]; lp += f[3]
	if (i == 1) { c += d; lc = f[3] } else if (f[2] == "pcap-writer") w += d; else o += d }
      life = (lp == 0) ? "na,na" : sprintf("%.0f,%.0f", lc, lp)
      if (lp == 0 || ("threads_at_ready" in col && ready == "") || counted == "0")
	from = "na,na,na,na"
      else
	from = sprintf("%.0f,%.0f,%.0f,%.0f", c, w, o, c + w + o)
      out = $1
      for (i = 2; i <= 13; i++) out = out OFS $i
      print out, from, $18, threads, ready, counted, life }' "$CSV.in" >"$CSV" &&
    rm -f "$CSV.in"
# Whether the figures are from ready, and the runs left out because
# tcpdump had not counted every frame when the CPU times were read.
FROM_READY=$(awk -F, 'NR > 1 && $20 != "" { print 1; exit }' "$CSV")
EARLY=$(awk -F, 'NR > 1 && $21 == "0" { n++ } END { print n + 0 }' "$CSV")
if [ -n "${CPU_FROM:-}" ]; then
	fromdir=$(dirname "$CPU_FROM")
	if [ -f "$fromdir/cpu-batches.txt" ]; then
		BATCHLOG=$(cat "$fromdir/cpu-batches.txt")
		BATCHLOG="$BATCHLOG
"
	fi
	VARIANTS=$(awk -F, 'NR > 1 && $2 != "-" && !s[$2]++ { printf "%s%s", sep, $2; sep = " " }' "$CSV")
	CPU_VARIANTS=
	for v in $VARIANTS; do CPU_VARIANTS="$CPU_VARIANTS${CPU_VARIANTS:+ }$v="; done
fi

# Per point: median, min and max of us/packet per thread and process.
PTS=$BENCH_OUT/cpu-points.csv
awk -F, 'NR > 1 && $10 + 0 > 0 && $14 != "na" {
	k = $2 "," $3 "," $4 "," $5; n[k]++
	c[k, n[k]] = $14 / $10 / 1000; w[k, n[k]] = $15 / $10 / 1000
	o[k, n[k]] = $16 / $10 / 1000; p[k, n[k]] = $17 / $10 / 1000
	lc[k, n[k]] = $22 / $10 / 1000; lp[k, n[k]] = $23 / $10 / 1000
	cap[k, n[k]] = $10; d[k] += $11; r[k] += $12
	if ($9 + 0 < $7 * 0.95) short[k]++ }
    function med(a, k, m, f,   i, j, t, v) {
	for (i = 1; i <= m; i++) v[i] = a[k, i]
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return sprintf(f "," f "," f, (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2, v[1], v[m])
    }
    END {
	for (k in n) {
		m = n[k]
		printf "%s,%d,%s,%s,%s,%s,%s,%d,%d,%d,%s,%s\n", k, m, med(c, k, m, "%.4f"), med(w, k, m, "%.4f"),
		    med(o, k, m, "%.4f"), med(p, k, m, "%.4f"), med(cap, k, m, "%d"), d[k], r[k], short[k],
		    med(lc, k, m, "%.4f"), med(lp, k, m, "%.4f")
	} }' "$CSV" | sort -t, -k3,3 -k4,4n -k1,1 -k2,2 >"$PTS.tmp"
{
	echo "variant,config,type,secs,runs,capture_us_med,capture_us_min,capture_us_max,writer_us_med,writer_us_min,writer_us_max,other_us_med,other_us_min,other_us_max,process_us_med,process_us_min,process_us_max,captured_med,captured_min,captured_max,dropped_sum,ring_dropped_sum,runs_sender_short,capture_life_us_med,capture_life_us_min,capture_life_us_max,process_life_us_med,process_life_us_min,process_life_us_max"
	cat "$PTS.tmp"
} >"$PTS"
rm -f "$PTS.tmp"

# pt VARIANT CONFIG TYPE SECS FIELD: one field of cpu-points.csv
# (capture, writer, other, process, capture_life, process_life; _med,
# _min, _max), or "na".
pt() {
	awk -F, -v k="$1,$2,$3,$4" -v f="$5" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    $1 "," $2 "," $3 "," $4 == k { print $col[f]; found = 1 }
	    END { if (!found) print "na" }' "$PTS"
}
# us3 VARIANT CONFIG TYPE SECS WHAT: "median (min-max)" in us/packet.
us3() {
	local m lo hi
	m=$(pt "$1" "$2" "$3" "$4" "${5}_us_med")
	lo=$(pt "$1" "$2" "$3" "$4" "${5}_us_min")
	hi=$(pt "$1" "$2" "$3" "$4" "${5}_us_max")
	if [ "$m" = na ]; then
		echo "n/a"
	else
		awk -v m="$m" -v a="$lo" -v b="$hi" 'BEGIN { printf "%.3f (%.3f-%.3f)\n", m, a, b }'
	fi
}
# verdict RATIO LIMIT: "RATIO met" or "RATIO not met" (<= LIMIT).
verdict() {
	if [ "$1" = n/a ]; then
		echo "n/a"
	elif awk -v r="$1" -v l="$2" 'BEGIN { exit !(r <= l) }'; then
		echo "$1 (met)"
	else
		echo "**$1 (not met)**"
	fi
}

# Brown's method.
BROWNCSV=$BENCH_OUT/cpu-brown.csv
if [ -n "${CPU_FROM:-}" ]; then
	[ "$(dirname "$CPU_FROM")/cpu-brown.csv" -ef "$BROWNCSV" ] ||
	    cp "$(dirname "$CPU_FROM")/cpu-brown.csv" "$BROWNCSV" 2>/dev/null ||
	    echo "variant,config,phase,rate,sent,pps,captured,dropped,ring_dropped,loss_pct" >"$BROWNCSV"
else
	echo "variant,config,phase,rate,sent,pps,captured,dropped,ring_dropped,loss_pct" >"$BROWNCSV"
fi
declare -A BLO BHI BTOP
# brown_point RATE PHASE VARIANT CONFIG: one burst; prints the loss %.
brown_point() {
	local rate=$1 var=$3 cfg=$4 rd loss
	[ "$var" != - ] && use_variant "$var"
	CR_NOCOUNT=1 CR_CPUS=$CPU_CAP_CPU CR_GEN_CPUS=$CPU_GEN_CPUS \
	    capture_run "$(cfg_capture "$cfg")" file fixed64 "$rate" "$CPU_BROWN_SECS" >&2
	if [ "$CR_SENT" = na ] || [ "$CR_TDCAP" = na ]; then
		echo na
		return
	fi
	rd=$(ring_dropped)
	loss=$(awk -v s="$CR_SENT" -v c="$CR_TDCAP" -v r="$rd" 'BEGIN {
	    printf "%.3f", (s > 0) ? (s - (c - r)) * 100 / s : 0 }')
	echo "$var,$cfg,$2,$rate,$CR_SENT,$CR_PPS,$CR_TDCAP,$CR_TDDROP,$rd,$loss" >>"$BROWNCSV"
	log "cpu brown $var $cfg rate=$rate: sent $CR_SENT ($CR_PPS pps) captured $CR_TDCAP dropped $CR_TDDROP ring $rd: loss $loss%"
	echo "$loss"
}
BROWN_RUNS=
if [ -n "${CPU_FROM:-}" ]; then
	# the brackets from the runs: highest lossless, lowest lossy rate
	BROWN_RUNS=$(awk -F, 'NR > 1 && !s[$1]++ { printf "%s%s", sep, $1; sep = " " }' "$BROWNCSV")
	[ -n "$BROWN_RUNS" ] || CPU_BROWN=0
	for var in $BROWN_RUNS; do
		BLO[$var]=$(awk -F, -v v="$var" 'NR > 1 && $1 == v && $10 + 0 == 0 && $4 + 0 > m { m = $4 + 0 } END { print m + 0 }' "$BROWNCSV")
		BHI[$var]=$(awk -F, -v v="$var" 'NR > 1 && $1 == v && $10 + 0 > 0 && (m == "" || $4 + 0 < m) { m = $4 + 0 } END { print (m == "" ? "na" : m) }' "$BROWNCSV")
	done
elif [ "$CPU_BROWN" = 1 ]; then
	quiet_wait
	BATCHLOG="$BATCHLOG- Brown's method: started $(date -u +%H:%M:%S) UTC at 1-minute load $LOAD1, quiet: $QUIET
"
	printf '%s' "$BATCHLOG" >"$BENCH_OUT/cpu-batches.txt"
	BROWN_RUNS="-"
	for var in $VARIANTS; do BROWN_RUNS="$BROWN_RUNS $var"; done
	for var in $BROWN_RUNS; do
		cfg=plain
		[ "$var" = - ] && cfg=stock
		ML_REPS=1 ML_SWEEP_STOP=1 maxload_search brown_point \
		    "$CPU_BROWN_RATES" "$CPU_BROWN_STEPS" "$var" "$cfg"
		BLO[$var]=$ML_LO
		BHI[$var]=$ML_HI
	done
fi

# The plot: us/packet per thread, stacked, a bar per configuration, a
# panel per type and duration.
GP=$BENCH_OUT/cpu.gp
npanel=$(( $(echo "$CPU_TYPES" | wc -w) * $(echo "$CPU_SECS" | wc -w) ))
cols=$(( npanel < 2 ? 1 : 2 ))
rows=$(( (npanel + cols - 1) / cols ))

# The variants a configuration was run with: stock tcpdump has its own
# libpcap, so none ("-").
variants_of() {
	if [ "$1" = stock ]; then
		echo -
	else
		echo "$VARIANTS"
	fi
}
{
	echo "set terminal pngcairo size $((cols * 640)),$((rows * 420)) font ',9'"
	echo "set output '$BENCH_OUT/cpu.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout $rows,$cols title 'CPU per packet captured, per thread (median of runs; capture process on one CPU)'"
	echo "set style data histograms; set style histogram rowstacked; set style fill solid 0.8 border -1; set boxwidth 0.7"
	echo "set ylabel 'us per packet'; set yrange [0:*]; set key top left font ',8'; set xtics rotate by -35 font ',8'; set grid ytics"
	for type in $CPU_TYPES; do
		for secs in $CPU_SECS; do
			f=$BENCH_OUT/.cpu-$type-$secs.dat
			: >"$f"
			for cfg in $CPU_CONFIGS; do
				for var in $(variants_of "$cfg"); do
					m=$(pt "$var" "$cfg" "$type" "$secs" capture_us_med)
					[ "$m" = na ] && continue
					lab=$cfg
					[ "$var" != - ] && [ "$VARIANTS" != "$var" ] && lab="$var $cfg"
					echo "$lab,$m,$(pt "$var" "$cfg" "$type" "$secs" writer_us_med),$(pt "$var" "$cfg" "$type" "$secs" other_us_med)" >>"$f"
				done
			done
			echo "set title '$type, ${secs}-s capture at $CPU_RATE frames/s'"
			if [ -s "$f" ]; then
				echo "plot '$f' using 2:xtic(1) title 'capture thread (stock: the process)', '' using 3 title 'pcap-writer', '' using 4 title 'other threads'"
			else
				echo "plot 0 title 'no data'"
			fi
		done
	done
	echo "unset multiplot"
} >"$GP"
gnuplot "$GP" 2>"$BENCH_OUT/cpu.gp.err" || log "gnuplot failed for cpu (see cpu.gp.err)"

# The report.
{
	echo "## $TITLE"
	echo
	echo "The capture (\`-s $SNAP -B $BUFKB -w FILE\`, a file in the page cache)"
	echo "pinned to CPU $CPU_CAP_CPU with taskset, the sender to CPU $CPU_GEN_CPUS (on a veth"
	echo "pair the sender's CPU also runs the receive path and the kernel's copy"
	echo "into the capture's ring, which no thread here is charged with)."
	echo "$CPU_RATE frames/s for $(echo "$CPU_SECS" | sed 's/ /, /g') s; CPU time per thread from"
	echo "/proc/PID/task/TID/schedstat 1.1 s after the last frame, once the"
	echo "writes had stopped, before SIGINT,"
	if [ -n "$FROM_READY" ]; then
		echo "less what each thread had spent when the capture said it was"
		echo "listening (its start-up, and that of ip netns exec, taskset and"
		echo "env, which exec into its process),"
	else
		echo "over whole lives (these runs have no reading at ready),"
	fi
	echo "over the packets captured; median (min-max) of $CPU_REPS run(s) in"
	echo "us per packet.  \"Whole life\" keeps the start-up in (threads alive"
	echo "at the end; those that ended before are only in process_ticks_ms)."
	echo "Runs left out because tcpdump had not counted every frame it"
	echo "received when the times were read: $EARLY.  Configurations:"
	echo "stock = stock tcpdump; plain = ours \`-w\` (writer thread, default ring);"
	echo "plain-8m = \`--writer-ring=8m\`; compress = \`--compress\`; compress-8m ="
	echo "\`--compress --writer-ring=8m\`.  Variants (libpcap): $(for v in $CPU_VARIANTS; do printf '%s ' "${v%%=*}"; done)"
	echo
	printf '%s' "$BATCHLOG"
	echo
	for type in $CPU_TYPES; do
		for secs in $CPU_SECS; do
			echo "### $type, ${secs}-s captures"
			echo
			md_head variant config "capture thread us/pkt" "pcap-writer us/pkt" "other threads us/pkt" "process us/pkt" "capture thread, whole life" "process, whole life" "captured (median)" "dropped (kernel, all runs)" "ring drops (all runs)" "runs"
			for cfg in $CPU_CONFIGS; do
				for var in $(variants_of "$cfg"); do
					if [ -n "${NA[$var,$cfg]:-}" ]; then
						md_row "$var" "$cfg" "n/a: ${NA[$var,$cfg]}" "" "" "" "" "" "" "" "" ""
						continue
					fi
					md_row "$var" "$cfg" "$(us3 "$var" "$cfg" "$type" "$secs" capture)" \
					    "$(us3 "$var" "$cfg" "$type" "$secs" writer)" \
					    "$(us3 "$var" "$cfg" "$type" "$secs" other)" \
					    "$(us3 "$var" "$cfg" "$type" "$secs" process)" \
					    "$(us3 "$var" "$cfg" "$type" "$secs" capture_life)" \
					    "$(us3 "$var" "$cfg" "$type" "$secs" process_life)" \
					    "$(pt "$var" "$cfg" "$type" "$secs" captured_med)" \
					    "$(pt "$var" "$cfg" "$type" "$secs" dropped_sum)" \
					    "$(pt "$var" "$cfg" "$type" "$secs" ring_dropped_sum)" \
					    "$(pt "$var" "$cfg" "$type" "$secs" runs)"
				done
			done
			echo
		done
	done
	echo "### Ratios against the issue's targets (medians)"
	echo
	echo "A = capture thread, default ring / 8 MiB ring (target <= 1.2);"
	echo "B = capture thread (plain) / stock's process (target <= 0.4);"
	echo "C = our process (plain) / stock's process (target <= 0.8)."
	echo "B and C over whole lives (no target): a fixed start-up, the same for"
	echo "stock and ours, weighs on a short capture and draws them towards 1."
	echo
	md_head variant type "capture s" "A plain" "A compress" "B" "C" "C compress (no target)" "B, whole life" "C, whole life"
	for var in $VARIANTS; do
		for type in $CPU_TYPES; do
			for secs in $CPU_SECS; do
				st=$(pt - stock "$type" "$secs" process_us_med)
				stl=$(pt - stock "$type" "$secs" process_life_us_med)
				a1=$(ratio "$(pt "$var" plain "$type" "$secs" capture_us_med)" "$(pt "$var" plain-8m "$type" "$secs" capture_us_med)")
				a2=$(ratio "$(pt "$var" compress "$type" "$secs" capture_us_med)" "$(pt "$var" compress-8m "$type" "$secs" capture_us_med)")
				b=$(ratio "$(pt "$var" plain "$type" "$secs" capture_us_med)" "$st")
				c=$(ratio "$(pt "$var" plain "$type" "$secs" process_us_med)" "$st")
				c2=$(ratio "$(pt "$var" compress "$type" "$secs" process_us_med)" "$st")
				md_row "$var" "$type" "$secs" "$(verdict "$a1" 1.2)" "$(verdict "$a2" 1.2)" \
				    "$(verdict "$b" 0.4)" "$(verdict "$c" 0.8)" "$c2" \
				    "$(ratio "$(pt "$var" plain "$type" "$secs" capture_life_us_med)" "$stl")" \
				    "$(ratio "$(pt "$var" plain "$type" "$secs" process_life_us_med)" "$stl")"
			done
		done
	done
	echo
	echo "Noise: the spread (max-min)/median of the capture thread's us/packet"
	echo "over the runs of each point, largest and median over the points:"
	awk -F, 'NR > 1 && $5 > 1 && $6 > 0 { s[++n] = ($8 - $7) / $6 }
	    END { if (!n) { print "n/a (one run per point)"; exit }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && s[j - 1] > s[j]; j--) { t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
		printf "largest %.0f %%, median %.0f %% (%d points).\n", s[n] * 100, ((n % 2) ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2) * 100, n }' "$PTS"
	short=$(awk -F, 'NR > 1 { s += $23 } END { print s + 0 }' "$PTS")
	echo "Runs in which the sender kept to less than 95 % of $CPU_RATE frames/s: $short."
	echo
	if [ "$CPU_BROWN" = 1 ]; then
		echo "### Brown's method: fixed64, the rate raised until the first loss"
		echo
		echo "${CPU_BROWN_SECS}-s bursts of one 64-byte frame repeated, sweep $(echo "$CPU_BROWN_RATES" | sed 's/ /, /g') frames/s,"
		echo "stopping at the first lossy rate, then $CPU_BROWN_STEPS bisection step(s); one run per rate."
		echo "Loss = sent - (captured - ring drops), kernel and ring drops both count."
		echo
		md_head variant config "max lossless (frames/s asked)" "highest rate the sender reached (pps)" "loss % at it"
		for var in $BROWN_RUNS; do
			cfg=plain
			[ "$var" = - ] && cfg=stock
			top=$(awk -F, -v v="$var" -v c="$cfg" '$1 == v && $2 == c { if ($6 + 0 > best) { best = $6 + 0; l = $10 } }
			    END { if (best) print best, l; else print "na na" }' "$BROWNCSV")
			md_row "$var" "$cfg" "$(fmt_bracket "${BLO[$var]}" "${BHI[$var]}")" "${top% *}" "${top#* }"
		done
		echo
		echo "\">= A\": no loss at any rate asked; then the sender, not the capture, was the limit."
		echo
	fi
	echo "Plot: [cpu.png](cpu.png).  Raw data: [cpu.csv](cpu.csv) (every run, every"
	echo "thread's ns), [cpu-points.csv](cpu-points.csv), [cpu-brown.csv](cpu-brown.csv)."
	echo
} >"$MD"

: >"$HL"
for var in $VARIANTS; do
	for type in $CPU_TYPES; do
		for secs in $CPU_SECS; do
			st=$(pt - stock "$type" "$secs" process_us_med)
			echo "cpu, $var $type ${secs}s, us/pkt|stock process $(us3 - stock "$type" "$secs" process); plain: capture $(us3 "$var" plain "$type" "$secs" capture), process $(us3 "$var" plain "$type" "$secs" process); capture/stock $(ratio "$(pt "$var" plain "$type" "$secs" capture_us_med)" "$st")" >>"$HL"
		done
	done
done
exit 0
