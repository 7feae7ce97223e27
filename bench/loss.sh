#!/bin/bash
# bench/loss.sh -- loss along a rate sweep and the maximum lossless load,
# per frame type, to a file on local disk and to a slow sink (issue #6,
# experiment c).
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
# Full mode adds SUSTAINED-second runs at stock tcpdump's maximum
# lossless burst rate, to see whether a burst result holds for longer.
#
# Environment (defaults depend on BENCH_MODE): BENCH_TYPES, BENCH_SINKS,
# BENCH_CONFIGS, BENCH_BISECT (steps), BENCH_BURST (s), BENCH_SUSTAINED (s,
# 0 = none), BENCH_SUSTAINED_TYPES.

. "$(dirname "$0")/lib.sh"
bench_experiment loss || exit 1
MAXCSV=$BENCH_OUT/maxload.csv

if [ "$BENCH_MODE" = quick ]; then
	: "${BENCH_TYPES:=fixed1518}"
	: "${BENCH_SLOW_TYPES:=fixed1518}"
	: "${BENCH_BISECT:=0}"
	: "${BENCH_SUSTAINED:=0}"
	# A smoke run: one of each kind of configuration.
	: "${BENCH_CONFIGS:=stock ours ours-zstd stock+zstd stock+mbuffer dumpcap netsniff-ng}"
	# which points of each sweep_rates list: two that usually bracket
	# stock tcpdump here
	PICK_file="2 4"
	PICK_slow="1 3"
else
	# Shimizu's five frame types and the real HTTP trace to disk; the
	# two that compress best and worst to the slow sink (generated
	# http: see menski.sh).
	: "${BENCH_TYPES:=fixed64 fixed1518 random64 random1518 slammer http-real}"
	: "${BENCH_SLOW_TYPES:=fixed1518 random1518}"
	: "${BENCH_BISECT:=1}"
	: "${BENCH_SUSTAINED:=10}"
	: "${BENCH_SUSTAINED_TYPES:=fixed1518}"
	: "${BENCH_SUSTAINED_SINKS:=slow}"
	# Two rates to disk, one for 64-byte frames: the highest is near
	# what sluice-gen can offer here (see the generator's ceiling), and
	# below it no configuration has lost a frame in a full run, so the
	# bisection under it is what tells them apart.  The full run of
	# 2026-11-21 took 36 minutes with three rates everywhere; this
	# brings it to about 28.
	PICK_file="2 4"
	PICK_file64="4"
	PICK_slow="1 2 4"
fi
: "${BENCH_SINKS:=file slow}"
: "${BENCH_BURST:=2}"
: "${BENCH_CONFIGS:=$(config_list)}"

# sweep_rates SINK TYPE: four rates (frames/s), low to high.  File sink:
# up to what sluice-gen reaches on a veth pair here; slow sink: around
# what 20 MB/s carries for the frame size (about 13 k/s of 1518-byte
# frames, 260 k/s of 64-byte frames).
sweep_rates() {
	case $1:$2 in
	file:fixed64|file:random64)	echo 100000 300000 600000 1000000 ;;
	file:slammer)			echo 100000 200000 400000 800000 ;;
	file:*)				echo 50000 100000 200000 400000 ;;
	slow:fixed64|slow:random64)	echo 100000 200000 400000 800000 ;;
	slow:fixed1518|slow:random1518|slow:http-real)
					echo 10000 20000 40000 80000 ;;
	slow:*)				echo 25000 50000 100000 200000 ;;
	esac
}

pick() {	# pick SINK TYPE LIST
	case $1:$2 in
	slow:*)			_pk=$PICK_slow ;;
	file:fixed64|file:random64)	_pk=${PICK_file64:-$PICK_file} ;;
	*)			_pk=$PICK_file ;;
	esac
	# shellcheck disable=SC2086
	set -- $3
	for _p in $_pk; do
		eval "echo \${$_p}"
	done
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

echo "phase,type,sink,config,rate,seconds,sent,pps,got,loss_pct,td_captured,td_dropped" >"$CSV"
echo "type,sink,config,max_lossless_pps,lowest_lossy_pps,ratio_to_stock,note" >"$MAXCSV"

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
	echo "$2,$5,$4,$3,$1,$_secs,$CR_SENT,$CR_PPS,$CR_GOT,$CR_LOSS,$CR_TDCAP,$CR_TDDROP" >>"$CSV"
	log "$2 $5 $4 $3 rate=$1: sent $CR_SENT got $CR_GOT loss $CR_LOSS%"
	echo "$CR_LOSS"
}

declare -A MAXL MAXH NOTE
for sink in $BENCH_SINKS; do
	if [ "$sink" = slow ]; then types=$BENCH_SLOW_TYPES; else types=$BENCH_TYPES; fi
	for type in $types; do
		rates=$(pick "$sink" "$type" "$(sweep_rates "$sink" "$type")")
		for cfg in $BENCH_CONFIGS; do
			na=$(config_na "$cfg")
			if [ "$type" = http-real ] && [ -z "${HTTP_TRACE:-}" ]; then
				na="no HTTP trace: $HTTP_TRACE_NA"
			fi
			if [ -n "$na" ]; then
				NOTE[$type,$sink,$cfg]="n/a: $na"
				echo "$type,$sink,$cfg,na,na,na,n/a: $na" >>"$MAXCSV"
				continue
			fi
			maxload_search one "$rates" "$BENCH_BISECT" "$cfg" "$sink" "$type"
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
		for cfg in $BENCH_CONFIGS; do
			[ -n "${MAXL[$type,$sink,$cfg]:-}" ] || continue
			echo "$type,$sink,$cfg,${MAXL[$type,$sink,$cfg]},${MAXH[$type,$sink,$cfg]},$(ratio_b "${MAXL[$type,$sink,$cfg]}" "${MAXH[$type,$sink,$cfg]}" "${MAXL[$type,$sink,stock]:-na}" "${MAXH[$type,$sink,stock]:-na}"),${NOTE[$type,$sink,$cfg]}" >>"$MAXCSV"
		done
	done
done

# Sustained runs at stock's maximum lossless burst rate.
if [ "$BENCH_SUSTAINED" != 0 ]; then
	for sink in ${BENCH_SUSTAINED_SINKS:-$BENCH_SINKS}; do
		for type in ${BENCH_SUSTAINED_TYPES:-}; do
			r=${MAXL[$type,$sink,stock]:-0}
			[ "$r" = 0 ] && continue
			for cfg in $BENCH_CONFIGS; do
				[ -n "$(config_na "$cfg")" ] && continue
				one "$r" sustained "$cfg" "$sink" "$type" "$BENCH_SUSTAINED" >/dev/null
			done
		done
	done
fi

# ---------------------------------------------------------------------
# Plots: loss % against offered rate, one panel per type, per sink.
for sink in $BENCH_SINKS; do
	if [ "$sink" = slow ]; then types=$BENCH_SLOW_TYPES; else types=$BENCH_TYPES; fi
	n=$(echo "$types" | wc -w)
	cols=$(( n < 3 ? n : 3 ))
	rows=$(( (n + cols - 1) / cols ))
	gp=$BENCH_OUT/loss-$sink.gp
	{
		echo "set terminal pngcairo size $((cols * 520)),$((rows * 380)) font ',9'" 2>/dev/null
		echo "set output '$BENCH_OUT/loss-$sink.png'"
		echo "set datafile separator ','"
		echo "set multiplot layout $rows,$cols title 'Loss vs offered rate, ${BENCH_BURST}-s bursts, sink: $sink'"
		echo "set logscale x; set xlabel 'frames/s offered'; set ylabel 'loss %'; set yrange [-2:100]; set key top left font ',7'"
		for type in $types; do
			plots=
			for cfg in $BENCH_CONFIGS; do
				[ -n "${MAXL[$type,$sink,$cfg]:-}" ] || continue
				f=$BENCH_OUT/.loss-$type-$sink-$cfg.dat
				awk -F, -v t="$type" -v s="$sink" -v c="$cfg" \
				    '$1 != "sustained" && $2 == t && $3 == s && $4 == c { print $5 "," $10 }' "$CSV" |
				    sort -t, -k1,1n >"$f"
				plots="$plots${plots:+, }'$f' using 1:2 with linespoints title '$cfg'"
			done
			echo "set title '$type'"
			if [ -n "$plots" ]; then echo "plot $plots"; else echo "plot 0 title 'no data'"; fi
		done
		echo "unset multiplot"
	} >"$gp"
	gnuplot "$gp" 2>"$BENCH_OUT/loss-$sink.gp.err" || log "gnuplot failed for loss-$sink (see loss-$sink.gp.err)"
done

# ---------------------------------------------------------------------
# Report section and headline.
fmt_max() {
	fmt_bracket "${MAXL[$1]:-}" "${MAXH[$1]:-}"
}
{
	echo "## Loss and maximum lossless load (Shimizu max lossless load; Brown; Gulp)"
	echo
	echo "Each run: the capture starts on $VETH_B (namespace $NS_B), sluice-gen sends"
	echo "RATE x ${BENCH_BURST} s numbered frames from $VETH_A, the capture is stopped once it"
	echo "has written everything it holds, and loss = sent - distinct frames in the"
	echo "result (sluice-seqcheck).  Capture settings: -s $SNAP -B $BUFKB (dumpcap: -B $((BUFKB / 1024)) MiB)."
	echo "Sinks: **file** = a file on local disk ($BENCH_SCRATCH); **slow** = \`-w -\` into"
	echo "slowsink at $SLOW_RATE B/s (a slow disk), its output kept for counting."
	echo "Peers: stock+zstd = stock tcpdump \`-w - | zstd -1\`, stock+lz4 = \`| lz4 -1\`,"
	echo "stock+mbuffer = \`| mbuffer -m 100M\` (Gulp-style buffering), then the sink."
	echo "dumpcap and netsniff-ng write the file (or standard output into the slow"
	echo "sink) themselves.  http-real = the real HTTP trace of the codec section"
	echo "replayed in a loop by \`sluice-gen --replay\`, each frame numbered."
	echo
	echo "Maximum lossless load, frames/s, from a sweep ($(echo "$PICK_file" | wc -w) rates) plus"
	echo "$BENCH_BISECT bisection step(s): \"A (< B)\" = lossless at A, lossy at B; the ratio is"
	echo "A over stock tcpdump's A in this same run.  Single runs, no repetition: the"
	echo "bracket is the uncertainty."
	echo
	for sink in $BENCH_SINKS; do
		if [ "$sink" = slow ]; then types=$BENCH_SLOW_TYPES; else types=$BENCH_TYPES; fi
		echo "### Sink: $sink"
		echo
		cols=(config)
		for type in $types; do cols+=("$type" ratio); done
		md_head "${cols[@]}"
		for cfg in $BENCH_CONFIGS; do
			cells=("$cfg")
			for type in $types; do
				if [ -z "${MAXL[$type,$sink,$cfg]:-}" ]; then
					cells+=("${NOTE[$type,$sink,$cfg]:-n/a}" "")
				else
					cells+=("$(fmt_max "$type,$sink,$cfg")" \
					    "$(ratio_b "${MAXL[$type,$sink,$cfg]}" "${MAXH[$type,$sink,$cfg]}" "${MAXL[$type,$sink,stock]:-na}" "${MAXH[$type,$sink,stock]:-na}")")
				fi
			done
			md_row "${cells[@]}"
		done
		echo
		echo "![loss vs rate, $sink](loss-$sink.png)"
		echo
	done
	echo "Shimizu et al. (GbE, FreeBSD, 2006), max lossless load in % of GbE for"
	echo "NC nobuf / NC buf / LZO nobuf / LZO buf / zlib-1: 64 B fixed 12/12/11/13/10;"
	echo "1518 B fixed 6/20/52/56/31; 64 B random 11/11/10/11/5; 1518 B random"
	echo "16/25/24/15/8; Slammer 418 B 25/25/25/30/21.  Their absolute numbers are"
	echo "not comparable with a veth pair; the ordering of the columns is."
	echo
	if [ "$BENCH_SUSTAINED" != 0 ]; then
		echo "### Sustained ${BENCH_SUSTAINED}-s runs at stock's maximum lossless burst rate"
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
	echo "[loss.csv](loss.csv), [maxload.csv](maxload.csv)."
	echo
} >"$MD"

: >"$HL"
for type in $BENCH_CEILING_TYPES; do
	# shellcheck disable=SC2086 # "PPS CPU"
	set -- ${CEIL[$type]}
	echo "sluice-gen ceiling, $type on veth, no capture|$1 frames/s ($2 us CPU/frame, $BENCH_GEN_THREADS thread(s))" >>"$HL"
done
for sink in $BENCH_SINKS; do
	if [ "$sink" = slow ]; then types=$BENCH_SLOW_TYPES; else types=$BENCH_TYPES; fi
	for type in $types; do
		line="max lossless, $type -> $sink|stock $(fmt_max "$type,$sink,stock") f/s"
		for cfg in $BENCH_CONFIGS; do
			[ "$cfg" = stock ] && continue
			if [ -n "${MAXL[$type,$sink,$cfg]:-}" ]; then
				line="$line; $cfg $(ratio_b "${MAXL[$type,$sink,$cfg]}" "${MAXH[$type,$sink,$cfg]}" "${MAXL[$type,$sink,stock]:-na}" "${MAXH[$type,$sink,stock]:-na}")"
			else
				line="$line; $cfg n/a"
			fi
		done
		echo "$line" >>"$HL"
	done
done
exit 0
