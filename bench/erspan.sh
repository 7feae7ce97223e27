#!/bin/bash
# bench/erspan.sh -- ERSPAN, 1 % selectivity: filtering the mirrored
# frames in the kernel against capturing all GRE and decapsulating and
# filtering in user space (issue #6, experiment e; Satten, seed 002:
# stock tools could not filter inside ERSPAN, so everything had to be
# captured and decapsulated by Gulp).
#
# sluice-gen sends slammer frames wrapped in ERSPAN type 3; the filter
# keeps the frames whose sequence number is a multiple of 100 (exactly
# 1 %): "udp[12:4] % 100 = 0" on the mirrored frame (sluice-seq.h: the
# sequence number is at UDP payload offset 4).  Configurations:
#	ours-erspan	our tcpdump --erspan FILTER: the kernel filters the
#			mirrored frame, only matches are copied, the file
#			holds the mirrored frames
#	ours-erspanfilter  our tcpdump "erspan and FILTER": kernel filter,
#			outer headers kept
#	stock+decap	stock tcpdump "proto gre" -w - | our tcpdump -r -
#			--erspan FILTER: capture everything, decapsulate and
#			filter in user space
# Loss = matching frames sent - matching frames in the file; maximum
# lossless load by sweep and bisection as in loss.sh.  n/a until our
# tcpdump has --erspan.

. "$(dirname "$0")/lib.sh"
bench_init || exit 1
NAME=erspan
MD=$BENCH_OUT/$NAME.md
CSV=$BENCH_OUT/erspan.csv
HL=$BENCH_OUT/$NAME.headline

if [ "$BENCH_MODE" = quick ]; then
	: "${ERSPAN_RATES:=200000 800000}"
	: "${ERSPAN_BISECT:=0}"
else
	: "${ERSPAN_RATES:=100000 200000 400000 800000}"
	: "${ERSPAN_BISECT:=2}"
fi
: "${BENCH_BURST:=2}"
CONFIGS="ours-erspan ours-erspanfilter stock+decap"
FILTER='udp[12:4] % 100 = 0'
export ERSPAN_FILTER=$FILTER

na=
if ! is_root; then
	na="needs root (network namespaces)"
elif [ ! -x "$TD_OURS" ]; then
	na="our tcpdump is not built"
elif ! td_has ours --erspan; then
	na="our tcpdump has no --erspan yet"
fi
if [ -n "$na" ]; then
	{
		echo "## ERSPAN, 1 % selectivity (Satten)"
		echo
		echo "n/a: $na."
		echo
	} >"$MD"
	echo "ERSPAN 1% selectivity|n/a ($na)" >"$HL"
	exit 0
fi
bench_build_tools || exit 1
bench_netns || exit 1

# capture arguments of each configuration (after -s/-B/-w)
cfg_args() {
	case $1 in
	ours-erspan)		CARGS=(--erspan "$FILTER") ;;
	ours-erspanfilter)	CARGS=("erspan and $FILTER") ;;
	stock+decap)		CARGS=("proto gre") ;;
	esac
}

echo "phase,config,rate,seconds,sent,pps,expected,got,loss_pct,td_captured,td_dropped" >"$CSV"
export CR_GEN_ARGS="--erspan 3"
export CR_EXPECT_EVERY=100
declare -A MAXL MAXH
one() {	# one CONFIG RATE PHASE: prints the loss
	cfg_args "$1"
	capture_run "$1" file slammer "$2" "$BENCH_BURST" "${CARGS[@]}"
	[ $? = 2 ] && { echo na; return; }
	echo "$3,$1,$2,$BENCH_BURST,$CR_SENT,$CR_PPS,$CR_EXPECTED,$CR_GOT,$CR_LOSS,$CR_TDCAP,$CR_TDDROP" >>"$CSV"
	log "erspan $3 $1 rate=$2: sent $CR_SENT, $CR_EXPECTED matching, got $CR_GOT, loss $CR_LOSS%"
	echo "$CR_LOSS"
}
lossless() { awk -v l="$1" 'BEGIN { exit !(l != "na" && l != "" && l + 0 == 0) }'; }

for cfg in $CONFIGS; do
	lo=0
	hi=0
	for r in $ERSPAN_RATES; do
		l=$(one "$cfg" "$r" sweep)
		if lossless "$l"; then
			[ "$r" -gt "$lo" ] && lo=$r
		elif [ "$l" != na ] && { [ "$hi" = 0 ] || [ "$r" -lt "$hi" ]; }; then
			hi=$r
		fi
	done
	if [ "$hi" != 0 ] && [ "$lo" -lt "$hi" ]; then
		b=0
		base=$lo
		[ "$base" = 0 ] && base=$((hi / 4))
		while [ "$b" -lt "$ERSPAN_BISECT" ]; do
			m=$(awk -v a="$base" -v c="$hi" 'BEGIN { printf "%d", int(sqrt(a * c) / 1000) * 1000 }')
			{ [ "$m" -le "$base" ] || [ "$m" -ge "$hi" ]; } && break
			if lossless "$(one "$cfg" "$m" bisect)"; then
				lo=$m
				base=$m
			else
				hi=$m
			fi
			b=$((b + 1))
		done
	fi
	[ "$hi" = 0 ] && hi=na
	MAXL[$cfg]=$lo
	MAXH[$cfg]=$hi
done
unset CR_GEN_ARGS CR_EXPECT_EVERY

fmt() {
	if [ "${MAXH[$1]}" = na ]; then echo ">= ${MAXL[$1]}"
	elif [ "${MAXL[$1]}" = 0 ]; then echo "< ${MAXH[$1]}"
	else echo "${MAXL[$1]} (< ${MAXH[$1]})"; fi
}

# Plot: loss of the matching frames against offered rate.
gp=$BENCH_OUT/erspan.gp
plots=
for cfg in $CONFIGS; do
	f=$BENCH_OUT/.erspan-$cfg.dat
	awk -F, -v c="$cfg" 'NR > 1 && $2 == c { print $3 "," $9 }' "$CSV" | sort -t, -k1,1n >"$f"
	plots="$plots${plots:+, }'$f' using 1:2 with linespoints title '$cfg'"
done
cat >"$gp" <<EOF
set terminal pngcairo size 640,420 font ',9'
set output '$BENCH_OUT/erspan.png'
set datafile separator ','
set title 'ERSPAN type 3, 1 % of mirrored frames kept: loss of those'
set logscale x; set xlabel 'ERSPAN frames/s offered'; set ylabel 'loss %'
set yrange [-2:100]; set key top left
plot $plots
EOF
gnuplot "$gp" 2>"$BENCH_OUT/erspan.gp.err" || log "gnuplot failed for erspan"

{
	echo "## ERSPAN, 1 % selectivity (Satten)"
	echo
	echo "sluice-gen sends 418-byte slammer frames wrapped in ERSPAN type 3 (GRE over"
	echo "IPv4) for ${BENCH_BURST}-s bursts; the filter \`$FILTER\` keeps exactly 1 % of the"
	echo "mirrored frames.  Loss = matching frames sent - matching frames in the file."
	echo "-s $SNAP -B $BUFKB, file on local disk."
	echo
	echo "- **ours-erspan**: our tcpdump \`--erspan '$FILTER'\` (filter on the mirrored"
	echo "  frame, in the kernel; the file holds the mirrored frames);"
	echo "- **ours-erspanfilter**: our tcpdump \`'erspan and $FILTER'\` (in the kernel,"
	echo "  outer headers kept);"
	echo "- **stock+decap**: stock tcpdump \`'proto gre' -w -\` piped into our tcpdump"
	echo "  \`-r - --erspan -w FILE '$FILTER'\` (everything crosses to user space, is"
	echo "  decapsulated and filtered there, as Gulp did)."
	echo
	echo "| configuration | max lossless ERSPAN frames/s | ratio to stock+decap |"
	echo "|---|---|---|"
	for cfg in $CONFIGS; do
		echo "| $cfg | $(fmt "$cfg") | $(ratio_b "${MAXL[$cfg]}" "${MAXH[$cfg]}" "${MAXL[stock+decap]}" "${MAXH[stock+decap]}") |"
	done
	echo
	echo "| phase | configuration | rate | sent | matching | got | loss % |"
	echo "|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $5, $7, $8, $9 }' "$CSV"
	echo
	echo "![ERSPAN](erspan.png)"
	echo
	echo "Raw data: [erspan.csv](erspan.csv)."
	echo
} >"$MD"
{
	printf 'ERSPAN 1%% kept, max lossless f/s|stock+decap %s' "$(fmt stock+decap)"
	for cfg in ours-erspan ours-erspanfilter; do
		printf '; %s %s' "$cfg" "$(ratio_b "${MAXL[$cfg]}" "${MAXH[$cfg]}" "${MAXL[stock+decap]}" "${MAXH[stock+decap]}")"
	done
	echo
} >"$HL"
exit 0
