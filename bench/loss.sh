#!/bin/bash
# bench/loss.sh -- loss along a rate sweep and the maximum lossless load,
# per frame type, to a file on local disk and to a slow sink.
#
# Reproduces Shimizu et al., "max lossless load" table (NC nobuf / NC
# buf / LZO / zlib columns) and Brown's method (raise the rate until the
# first drop), with Gulp's question (Satten): does buffering in front of
# a slow disk save the burst?  Every configuration of config_list (lib.sh)
# captures with -s 65535 -B 2048 on the receiving end of our veth pair
# while sluice-gen sends numbered frames of one type at a fixed rate for
# a burst of BURST seconds; loss = frames sent - distinct frames in the
# file (sluice-seqcheck), tcpdump's own counts are kept as a cross-check.
#
# For each type and sink: a sweep over fixed rates (the same for every
# configuration, so the loss curves compare), then a bounded bisection
# between the highest lossless and the lowest lossy rate of the sweep.
# Every rate is measured BENCH_REPS times (3 in full mode); the tables
# give the median loss with its min-max, and a rate counts as lossless
# when its median loss is 0, i.e. when it was lossless in a strict
# majority of the runs (maxload_search, ml_point in lib.sh).  Full mode
# adds SUSTAINED-second runs at stock tcpdump's maximum lossless burst
# rate (or BENCH_SUSTAINED_RATE: full 40k frames/s), to see whether a
# burst result holds for longer.
#
# Environment (defaults depend on BENCH_MODE): BENCH_TYPES,
# BENCH_SLOW_TYPES, BENCH_SINKS, BENCH_CONFIGS (every sink and type),
# BENCH_REPS, BENCH_BISECT (steps), BENCH_BURST (s), BENCH_SUSTAINED (s,
# 0 = none), BENCH_SUSTAINED_TYPES, BENCH_SUSTAINED_CONFIGS,
# BENCH_SUSTAINED_RATE.

. "$(dirname "$0")/lib.sh"
bench_experiment loss || exit 1
MAXCSV=$BENCH_OUT/maxload.csv
PTCSV=$BENCH_OUT/losspoints.csv
SUMMARY=$BENCH_OUT/loss.summary

if [ "$BENCH_MODE" = quick ]; then
	: "${BENCH_TYPES:=fixed1518}"
	: "${BENCH_SLOW_TYPES:=fixed1518}"
	: "${BENCH_REPS:=1}"
	: "${BENCH_SUSTAINED:=0}"
else
	# Every frame type to the file (but random64: stock, ours and ours+w
	# write the bytes as they are, so to them it is fixed64); to the
	# slow sink the two that compress best and worst and generated HTTP,
	# which the goals in bench/README name.
	: "${BENCH_TYPES:=fixed64 fixed1518 random1518 slammer http-real}"
	: "${BENCH_SLOW_TYPES:=http fixed1518 random1518}"
	: "${BENCH_REPS:=3}"
	: "${BENCH_SUSTAINED:=10}"
	: "${BENCH_SUSTAINED_TYPES:=fixed1518}"
	: "${BENCH_SUSTAINED_SINKS:=slow}"
	# 40k 1514-byte frames/s is 60 MB/s: a 2-s burst fits in a 128 MiB
	# ring or mbuffer's 100 MB, 10 s does not (a buffer absorbs a
	# burst, not a rate); compression keeps up.
	: "${BENCH_SUSTAINED_RATE:=40000}"
	: "${BENCH_SUSTAINED_CONFIGS:=ours+w ours-zstd+w}"
fi
: "${BENCH_SINKS:=file slow}"
: "${BENCH_BURST:=2}"
# shellcheck disable=SC2034 # read by maxload_search (lib.sh)
ML_REPS=$BENCH_REPS

# plan SINK TYPE: the sweep rates (frames/s, low to high), bisection
# steps and configurations for TYPE to SINK, as "RATES|STEPS|CONFIGS".
# The full run spends its time where configurations differ (about 3.2 s
# per 2-s run to the file, up to 9 s to the slow sink when a buffer of
# 100 MB drains at 20 MB/s), three runs per rate:
#   file: stock, ours and ours+w on every type (goal: ours >= stock
#	everywhere), plus the best file peer of earlier runs (mbuffer) on
#	random1518; two rates around stock's maximum of earlier runs (full
#	run of 2026-11-21: 200 k/s of 1518-byte frames; random1518, where
#	that run had ours at 0.5 x stock, also 100 k/s: on a busy machine
#	stock lost at 200 k/s in 2 of 3 runs), one where every
#	configuration but stock was lossless then (1 M/s of 64-byte frames,
#	the generator's ceiling; 800 k/s of slammer; 400 k/s of http-real),
#	with a bisection step below it for whoever loses there.
#   slow: generated HTTP for stock, the peers and ours-zstd(+w), 200 and
#	800 k/s (in a test ours-zstd+w was lossless at 400 k/s) and three
#	bisection steps, a resolution of 1.19 (goal: ours >= 1.2 x the
#	best peer; stock, lossy at 200 k/s, gets 50 k/s, then bisection); fixed1518 (compresses best) for the compressors,
#	per-packet zlib included, 10 and 320 k/s and a step (goal:
#	ours >= 50 x stock, whose maximum was 14 k/s); random1518 (does not compress) for the
#	buffers, ours+w against mbuffer.
# Quick: fixed1518, one rate, one run each, every kind of configuration
# once (CI's smoke run, about 40 s).
plan() {
	if [ "$BENCH_MODE" = quick ]; then
		# a smoke run: every kind of configuration runs once
		case $1 in
		file)	echo "100000|0|stock ours+w dumpcap" ;;
		slow)	echo "40000|0|stock ours+w ours-zstd+w perpacket-zlib stock+zstd stock+mbuffer netsniff-ng" ;;
		esac
		return
	fi
	case $1:$2 in
	file:fixed64|file:random64)
		echo "1000000|1|stock ours ours+w" ;;
	file:slammer)
		echo "800000|1|stock ours ours+w" ;;
	file:http-real)
		echo "400000|1|stock ours ours+w" ;;
	file:random1518)
		echo "100000 200000 400000|0|stock ours ours+w stock+mbuffer" ;;
	file:*)
		echo "200000 400000|0|stock ours ours+w" ;;
	slow:http)
		echo "200000 800000|3|stock ours-zstd ours-zstd+w stock+zstd stock+lz4 stock+mbuffer" ;;
	slow:fixed1518)
		echo "10000 320000|1|stock ours-zstd ours-zstd+w perpacket-zlib stock+zstd" ;;
	slow:random1518)
		echo "20000 80000|0|stock ours+w stock+mbuffer dumpcap netsniff-ng" ;;
	slow:*)
		echo "20000 80000|0|stock ours+w ours-zstd+w stock+zstd stock+mbuffer" ;;
	esac
}
# plan_field SINK TYPE N: field N (1 rates, 2 steps, 3 configs) of plan,
# with the overrides BENCH_BISECT and BENCH_CONFIGS.
plan_field() {
	case $3 in
	2)	[ -n "${BENCH_BISECT:-}" ] && { echo "$BENCH_BISECT"; return; } ;;
	3)	[ -n "${BENCH_CONFIGS:-}" ] && { echo "$BENCH_CONFIGS"; return; } ;;
	esac
	plan "$1" "$2" | cut -d'|' -f"$3"
}
# all_configs: every configuration of some plan, in config_list order.
all_configs() {
	_ac=
	for _s in $BENCH_SINKS; do
		for _t in $(sink_types "$_s"); do
			_ac="$_ac $(plan_field "$_s" "$_t" 3)"
		done
	done
	for _c in $(config_list); do
		case " $_ac " in *" $_c "*) echo "$_c" ;; esac
	done
}
sink_types() {
	if [ "$1" = slow ]; then echo "$BENCH_SLOW_TYPES"; else echo "$BENCH_TYPES"; fi
}

na=$(live_na)
if [ -n "$na" ]; then
	bench_na_report "$NAME" "Loss and maximum lossless load (Shimizu, Brown, Gulp)" \
	    "loss" "$na"
	exit 0
fi
bench_live_setup || exit 1
# The real HTTP trace, replayed by sluice-gen --replay (lib.sh).
case " $BENCH_TYPES $BENCH_SLOW_TYPES " in
*" http-real "*)	bench_http_trace ;;
esac

# What the generator can offer at all: a sweep rate above it measures the
# generator, not the capture.
declare -A CEIL
: "${BENCH_CEILING_TYPES:=fixed64 fixed1518}"
for type in $BENCH_CEILING_TYPES; do
	CEIL[$type]=$(gen_ceiling "$type")
	log "generator ceiling $type: ${CEIL[$type]} (pps, CPU us/frame)"
done

echo "phase,type,sink,config,rate,seconds,sent,pps,got,loss_pct,td_captured,td_dropped,capture_thread_cpu_us" >"$CSV"
echo "type,sink,config,max_lossless_pps,lowest_lossy_pps,ratio_to_stock,note" >"$MAXCSV"
CONFIGS=$(all_configs)

# one RATE PHASE CONFIG SINK TYPE [SECONDS]: a run (of BENCH_BURST
# seconds by default), appended to the CSV; prints the loss (or "na").
# The measurement of maxload_search (lib.sh).
one() {
	_secs=${6:-$BENCH_BURST}
	capture_run "$3" "$4" "$5" "$1" "$_secs"
	if [ $? = 2 ]; then
		echo na
		return
	fi
	echo "$2,$5,$4,$3,$1,$_secs,$CR_SENT,$CR_PPS,$CR_GOT,$CR_LOSS,$CR_TDCAP,$CR_TDDROP,$CR_CAPCPU" >>"$CSV"
	log "$2 $5 $4 $3 rate=$1: sent $CR_SENT got $CR_GOT loss $CR_LOSS%"
	echo "$CR_LOSS"
}

declare -A MAXL MAXH NOTE
for sink in $BENCH_SINKS; do
	for type in $(sink_types "$sink"); do
		rates=$(plan_field "$sink" "$type" 1)
		steps=$(plan_field "$sink" "$type" 2)
		for cfg in $(plan_field "$sink" "$type" 3); do
			na=$(config_na "$cfg")
			if [ "$type" = http-real ] && [ -z "${HTTP_TRACE:-}" ]; then
				na="no HTTP trace: $HTTP_TRACE_NA"
			fi
			if [ -n "$na" ]; then
				NOTE[$type,$sink,$cfg]="n/a: $na"
				echo "$type,$sink,$cfg,na,na,na,n/a: $na" >>"$MAXCSV"
				continue
			fi
			maxload_search one "$rates" "$steps" "$cfg" "$sink" "$type"
			note=
			if [ "$ML_VALID" = 0 ]; then
				NOTE[$type,$sink,$cfg]="n/a: every run broke (see loss.log)"
				echo "$type,$sink,$cfg,na,na,na,n/a: every run broke" >>"$MAXCSV"
				continue
			elif [ "$ML_HI" = na ]; then
				note="lossless at every rate tried"
			elif [ "$ML_LO" = 0 ]; then
				note="lossy at every rate tried"
			fi
			MAXL[$type,$sink,$cfg]=$ML_LO
			MAXH[$type,$sink,$cfg]=$ML_HI
			NOTE[$type,$sink,$cfg]=$note
		done
		for cfg in $CONFIGS; do
			[ -n "${MAXL[$type,$sink,$cfg]:-}" ] || continue
			echo "$type,$sink,$cfg,${MAXL[$type,$sink,$cfg]},${MAXH[$type,$sink,$cfg]},$(ratio_b "${MAXL[$type,$sink,$cfg]}" "${MAXH[$type,$sink,$cfg]}" "${MAXL[$type,$sink,stock]:-na}" "${MAXH[$type,$sink,stock]:-na}"),${NOTE[$type,$sink,$cfg]}" >>"$MAXCSV"
		done
	done
done

# Sustained runs at BENCH_SUSTAINED_RATE, else at stock's maximum
# lossless burst rate.
if [ "$BENCH_SUSTAINED" != 0 ]; then
	for sink in ${BENCH_SUSTAINED_SINKS:-$BENCH_SINKS}; do
		for type in ${BENCH_SUSTAINED_TYPES:-}; do
			r=${BENCH_SUSTAINED_RATE:-${MAXL[$type,$sink,stock]:-0}}
			[ "$r" = 0 ] && continue
			for cfg in ${BENCH_SUSTAINED_CONFIGS:-$CONFIGS}; do
				[ -n "$(config_na "$cfg")" ] && continue
				one "$r" sustained "$cfg" "$sink" "$type" "$BENCH_SUSTAINED" >/dev/null
			done
		done
	done
fi

# ---------------------------------------------------------------------
# Medians and spread of each point: losspoints.csv (sweep and bisection
# runs; sustained runs are in their own table).
loss_points "$CSV" "$PTCSV"

# point TYPE SINK CONFIG RATE: "median (min-max)" of that point, or "".
point() {
	awk -F, -v k="$1,$2,$3,$4" '$1 "," $2 "," $3 "," $4 == k {
		if ($7 == $8) print $6; else printf "%s (%s-%s)\n", $6, $7, $8 }' "$PTCSV"
}

# ---------------------------------------------------------------------
# Plots: median loss % against offered rate, min-max as error bars, one
# panel per type, per sink.
for sink in $BENCH_SINKS; do
	loss_plot "loss-$sink" "Loss vs offered rate, ${BENCH_BURST}-s bursts, median of $BENCH_REPS (bars: min-max), sink: $sink" \
	    "$PTCSV" "$sink" "$(sink_types "$sink")" "$CONFIGS"
done

# ---------------------------------------------------------------------
# Report section, summary and headline.
fmt_max() {
	fmt_bracket "${MAXL[$1]:-}" "${MAXH[$1]:-}"
}
# vs_stock TYPE SINK CONFIG: CONFIG's maximum over stock's (ratio_b).
vs_stock() {
	ratio_b "${MAXL[$1,$2,$3]}" "${MAXH[$1,$2,$3]}" \
	    "${MAXL[$1,$2,stock]:-na}" "${MAXH[$1,$2,stock]:-na}"
}
# best_of TYPE SINK PREDICATE: the configuration with the highest
# maximum lossless load among those PREDICATE accepts (a higher lowest
# lossy rate, or none, breaks a tie); nothing if none ran.
best_of() {
	_bo=
	for _c in $CONFIGS; do
		"$3" "$_c" || continue
		[ -n "${MAXL[$1,$2,$_c]:-}" ] || continue
		if [ -z "$_bo" ]; then _bo=$_c; continue; fi
		_l=${MAXL[$1,$2,$_c]} _h=${MAXH[$1,$2,$_c]}
		_bl=${MAXL[$1,$2,$_bo]} _bh=${MAXH[$1,$2,$_bo]}
		if [ "$_l" -gt "$_bl" ] ||
		    { [ "$_l" = "$_bl" ] && [ "$_bh" != na ] &&
		    { [ "$_h" = na ] || [ "$_h" -gt "$_bh" ]; }; }; then
			_bo=$_c
		fi
	done
	echo "$_bo"
}
# shellcheck disable=SC2317 # called through best_of
is_ours() {
	case $1 in ours|ours+*|ours-*) return 0 ;; esac
	return 1
}
# cell TYPE SINK CONFIG: a summary cell: CONFIG's ratio to stock, or
# why there is none.
cell() {
	if [ -n "${MAXL[$1,$2,$3]:-}" ]; then
		vs_stock "$1" "$2" "$3"
	elif [ -n "${NOTE[$1,$2,$3]:-}" ]; then
		echo "${NOTE[$1,$2,$3]}"
	else
		echo "not run"
	fi
}

SUMCOLS="ours ours+w ours-zstd ours-zstd+w"
{
	echo "Maximum lossless load per frame type and sink ($BENCH_BURST-s bursts, median of"
	echo "$BENCH_REPS runs per rate; loss.sh): stock tcpdump in frames/s, the others as"
	echo "a ratio to it; best peer = the best of stock tcpdump piped into zstd, lz4"
	echo "or mbuffer, dumpcap and netsniff-ng, where run; last column: our best"
	echo "configuration over the best peer.  \"not run\": not in this sink's plan."
	echo
	# shellcheck disable=SC2086 # one column each
	md_head "type -> sink" "stock (f/s)" $SUMCOLS "best peer" "best ours / best peer"
	for sink in $BENCH_SINKS; do
		for type in $(sink_types "$sink"); do
			cells=("$type -> $sink" "$(fmt_max "$type,$sink,stock")")
			for cfg in $SUMCOLS; do
				cells+=("$(cell "$type" "$sink" "$cfg")")
			done
			bp=$(best_of "$type" "$sink" is_peer)
			bo=$(best_of "$type" "$sink" is_ours)
			if [ -n "$bp" ]; then
				cells+=("$bp $(fmt_max "$type,$sink,$bp") f/s, $(vs_stock "$type" "$sink" "$bp")")
			else
				cells+=("not run")
			fi
			if [ -n "$bp" ] && [ -n "$bo" ]; then
				cells+=("$bo $(ratio_b "${MAXL[$type,$sink,$bo]}" "${MAXH[$type,$sink,$bo]}" "${MAXL[$type,$sink,$bp]}" "${MAXH[$type,$sink,$bp]}" | sed 's/stock lossy/peer lossy/')")
			else
				cells+=("n/a")
			fi
			md_row "${cells[@]}"
		done
	done
	echo
} >"$SUMMARY"

{
	echo "## Loss and maximum lossless load (Shimizu max lossless load; Brown; Gulp)"
	echo
	echo "Each run: the capture starts on $VETH_B (namespace $NS_B), sluice-gen sends"
	echo "RATE x ${BENCH_BURST} s numbered frames from $VETH_A, the capture is stopped once it"
	echo "has written everything it holds, and loss = sent - distinct frames in the"
	echo "result (sluice-seqcheck).  Capture settings: -s $SNAP -B $BUFKB (dumpcap: -B $((BUFKB / 1024)) MiB)."
	echo "Sinks: **file** = a file on local disk ($BENCH_SCRATCH); **slow** = \`-w -\` into"
	echo "slowsink at $SLOW_RATE B/s (a slow disk), its output kept for counting."
	echo "ours = our tcpdump without a writer thread (\`--writer-ring=0\` where it runs one"
	echo "by default); ours+w = our tcpdump \`--writer-ring=128m\` (the writer thread); ours-CODEC ="
	echo "\`--compress=CODEC\` without it; ours-CODEC+w = both.  perpacket-zlib = bench/ppcap.c,"
	echo "each packet compressed on its own with zlib -1 before a 32 KiB buffered"
	echo "write (Shimizu's per-packet scheme)."
	echo "Peers: stock+zstd = stock tcpdump \`-w - | zstd -1\`, stock+lz4 = \`| lz4 -1\`,"
	echo "stock+mbuffer = \`| mbuffer -m 100M\` (Gulp-style buffering), then the sink."
	echo "dumpcap and netsniff-ng write the file (or standard output into the slow"
	echo "sink) themselves.  http-real = the real HTTP trace of the codec section"
	echo "replayed in a loop by \`sluice-gen --replay\`, each frame numbered."
	echo
	echo "**Repetitions:** every rate is run $BENCH_REPS time(s); loss % is the median with"
	echo "(min-max).  A rate counts as lossless when its median loss is 0, i.e. when it"
	echo "was lossless in a strict majority of its runs; the sweep and the bisection"
	echo "both use that rule.  Which configurations run for which type and sink, the"
	echo "rates and the bisection steps are in the plan of loss.sh (the full run puts"
	echo "its time where configurations differ)."
	echo
	echo "### Summary"
	echo
	cat "$SUMMARY"
	echo "Maximum lossless load, frames/s: \"A (< B)\" = lossless at A, lossy at B;"
	echo "the ratio is A over stock tcpdump's A in this same run."
	echo
	for sink in $BENCH_SINKS; do
		types=$(sink_types "$sink")
		echo "### Sink: $sink"
		echo
		cols=(config)
		for type in $types; do cols+=("$type" ratio); done
		md_head "${cols[@]}"
		for cfg in $CONFIGS; do
			cells=("$cfg")
			for type in $types; do
				if [ -z "${MAXL[$type,$sink,$cfg]:-}" ]; then
					cells+=("$(cell "$type" "$sink" "$cfg")" "")
				else
					cells+=("$(fmt_max "$type,$sink,$cfg")" "$(vs_stock "$type" "$sink" "$cfg")")
				fi
			done
			md_row "${cells[@]}"
		done
		echo
		echo "![loss vs rate, $sink](loss-$sink.png)"
		echo
		for type in $types; do
			rl=$(awk -F, -v t="$type" -v s="$sink" '$1 == t && $2 == s { print $4 }' "$PTCSV" | sort -n -u)
			[ -n "$rl" ] || continue
			echo "Loss %, $type -> $sink, median (min-max) of $BENCH_REPS run(s) per rate:"
			echo
			cols=(config)
			for r in $rl; do cols+=("$r f/s"); done
			md_head "${cols[@]}"
			for cfg in $CONFIGS; do
				[ -n "${MAXL[$type,$sink,$cfg]:-}" ] || continue
				cells=("$cfg")
				for r in $rl; do
					cells+=("$(point "$type" "$sink" "$cfg" "$r")")
				done
				md_row "${cells[@]}"
			done
			echo
		done
	done
	echo "Shimizu et al. (GbE, FreeBSD, 2006), max lossless load in % of GbE for"
	echo "NC nobuf / NC buf / LZO nobuf / LZO buf / zlib-1: 64 B fixed 12/12/11/13/10;"
	echo "1518 B fixed 6/20/52/56/31; 64 B random 11/11/10/11/5; 1518 B random"
	echo "16/25/24/15/8; Slammer 418 B 25/25/25/30/21.  Their absolute numbers are"
	echo "not comparable with a veth pair; the ordering of the columns is."
	echo
	echo "### Capture-thread CPU per packet"
	echo
	echo "CPU time of the thread that reads the kernel's ring (tcpdump's main"
	echo "thread, from /proc/PID/task/PID/schedstat just before SIGINT, start-up"
	echo "included) over the packets it captured, at the lowest rate of each"
	echo "sweep, where nothing is dropped; median (min-max) of the runs, in"
	echo "microseconds.  A writer thread and its helpers are not counted: this"
	echo "is what each packet costs the thread that has to keep up."
	echo
	md_head "type -> sink" rate config "us/packet"
	awk -F, 'NR > 1 && $1 == "sweep" && $13 != "na" && $13 != "" && $11 > 0 {
		k = $2 " -> " $3
		if (!(k in low) || $5 + 0 < low[k]) low[k] = $5 + 0
		n = ++cnt[k, $5, $4]; v[k, $5, $4, n] = $13 / $11
		cfg[k, $5, $4] = $4
	    }
	    END {
		for (kc in cnt) {
			split(kc, f, SUBSEP)
			if (f[2] + 0 != low[f[1]]) continue
			m = cnt[kc]
			for (i = 2; i <= m; i++)
				for (j = i; j > 1 && v[f[1], f[2], f[3], j - 1] > v[f[1], f[2], f[3], j]; j--) {
					t = v[f[1], f[2], f[3], j]
					v[f[1], f[2], f[3], j] = v[f[1], f[2], f[3], j - 1]
					v[f[1], f[2], f[3], j - 1] = t }
			med = (m % 2) ? v[f[1], f[2], f[3], (m + 1) / 2] : (v[f[1], f[2], f[3], m / 2] + v[f[1], f[2], f[3], m / 2 + 1]) / 2
			printf "| %s | %s | %s | %.2f (%.2f-%.2f) |\n", f[1], f[2], f[3], med, v[f[1], f[2], f[3], 1], v[f[1], f[2], f[3], m]
		}
	    }' "$CSV" | sort
	echo
	if [ "$BENCH_SUSTAINED" != 0 ]; then
		echo "### Sustained ${BENCH_SUSTAINED}-s runs"
		echo
		at="stock's maximum lossless burst rate"
		[ -n "${BENCH_SUSTAINED_RATE:-}" ] && at="$BENCH_SUSTAINED_RATE frames/s"
		echo "At $at, one run each: a buffer"
		echo "that absorbs a ${BENCH_BURST}-s burst need not absorb a rate."
		echo
		md_head type sink config rate sent "loss %" "tcpdump captured/dropped"
		awk -F, '$1 == "sustained" { printf "| %s | %s | %s | %s | %s | %s | %s/%s |\n", $2, $3, $4, $5, $7, $10, $11, $12 }' "$CSV"
		echo
	fi
	# Cross-check: tcpdump's own count against the file.
	bad=$(awk -F, 'NR > 1 && $11 != "na" && $9 != "na" && $11 != $9 { n++ } END { print n + 0 }' "$CSV")
	total=$(awk -F, 'NR > 1 { n++ } END { print n + 0 }' "$CSV")
	broke=$(awk -F, 'NR > 1 && ($9 == "na" || $7 == "na") { n++ } END { print n + 0 }' "$CSV")
	echo "### Generator ceiling"
	echo
	echo "sluice-gen unpaced for 1 s on the veth pair with $BENCH_GEN_THREADS sending thread(s)"
	echo "(BENCH_GEN_THREADS, as in every run here), no capture attached, best of"
	echo "2 (sendmmsg, batches of 64; the sender's CPU time includes the veth"
	echo "receive path, which runs in its context).  A capture attached costs the"
	echo "sender more CPU per frame, so with one the ceiling is lower."
	echo
	md_head type frames/s "CPU us/frame"
	for type in $BENCH_CEILING_TYPES; do
		# shellcheck disable=SC2086 # "PPS CPU"
		md_row "$type" ${CEIL[$type]}
	done
	slow_runs=$(awk -F, 'NR > 1 && $8 != "na" && $8 < 0.95 * $5 { n++ } END { print n + 0 }' "$CSV")
	echo
	echo "Runs in which sluice-gen offered less than 95 % of the requested rate: $slow_runs"
	echo "of $total (column pps of loss.csv is the rate offered)."
	echo
	echo "Runs that broke (no count): $broke of $total; see loss.log."
	echo "Cross-check: in $bad of $total runs the capture's own \"captured\" count differs"
	echo "from the frames found in the file (a difference means frames lost after"
	echo "the capture counted them: in a pipe consumer or the sink).  Raw data:"
	echo "[loss.csv](loss.csv) (every run), [losspoints.csv](losspoints.csv) (median"
	echo "and spread per rate), [maxload.csv](maxload.csv)."
	echo
} >"$MD"

: >"$HL"
for type in $BENCH_CEILING_TYPES; do
	# shellcheck disable=SC2086 # "PPS CPU"
	set -- ${CEIL[$type]}
	echo "sluice-gen ceiling, $type on veth, no capture|$1 frames/s ($2 us CPU/frame, $BENCH_GEN_THREADS thread(s))" >>"$HL"
done
for sink in $BENCH_SINKS; do
	for type in $(sink_types "$sink"); do
		line="max lossless, $type -> $sink (median of $BENCH_REPS)|stock $(fmt_max "$type,$sink,stock") f/s"
		for cfg in $CONFIGS; do
			[ "$cfg" = stock ] && continue
			[ -n "${MAXL[$type,$sink,$cfg]:-}" ] || continue
			line="$line; $cfg $(vs_stock "$type" "$sink" "$cfg")"
		done
		echo "$line" >>"$HL"
	done
done
exit 0
