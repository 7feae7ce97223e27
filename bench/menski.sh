#!/bin/bash
# bench/menski.sh -- Menski's six tcpdump configurations (seed 000,
# "tcpdump Analyse"), stock tcpdump against ours, drop %.
#
# Menski monitored HTTP on a loaded nginx: GET requests among much larger
# responses.  Here sluice-gen sends HTTP GET frames (the stream counted)
# at MENSKI_RATE frames/s together with 1514-byte random UDP frames at
# MENSKI_BG_RATE (the bulk the filters are meant to throw away), for
# MENSKI_SECS seconds.  Drop % = GET frames sent but absent from the
# file.  The six configurations, as in the paper:
#	1  -s 65535 -B 2048			(the default of the study)
#	2  -s 142				(-B 2048)
#	3  -B 4096				(-s 65535)
#	4  -s 142 -B 4096
#	5  4 + a host and port filter
#	6  4 + the GET payload filter
#	   tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420
# Each configuration runs MENSKI_REPS times per tcpdump; medians with
# min-max.  MENSKI_CONFIGS: which of the six (quick: 1, 4 and 6).

. "$(dirname "$0")/lib.sh"
bench_experiment menski || exit 1

if [ "$BENCH_MODE" = quick ]; then
	: "${MENSKI_REPS:=1}"
	: "${MENSKI_SECS:=2}"
	# the three of the headline: a smoke run
	: "${MENSKI_CONFIGS:=1 4 6}"
else
	: "${MENSKI_REPS:=3}"
	: "${MENSKI_SECS:=2}"
fi
: "${MENSKI_CONFIGS:=1 2 3 4 5 6}"
: "${MENSKI_RATE:=500000}"
: "${MENSKI_BG_RATE:=300000}"

GET_FILTER='tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420'
# sluice-gen's HTTP frames go to 192.0.2.0/24 port 80.
HOST_FILTER='dst net 192.0.2.0/24 and tcp dst port 80'

cfg_args() {
	case $1 in
	1)	CARGS=(-s 65535 -B 2048) ;;
	2)	CARGS=(-s 142) ;;
	3)	CARGS=(-B 4096) ;;
	4)	CARGS=(-s 142 -B 4096) ;;
	5)	CARGS=(-s 142 -B 4096 "$HOST_FILTER") ;;
	6)	CARGS=(-s 142 -B 4096 "$GET_FILTER") ;;
	esac
}
cfg_label() {
	case $1 in
	1)	echo "-s 65535 -B 2048" ;;
	2)	echo "-s 142" ;;
	3)	echo "-B 4096" ;;
	4)	echo "-s 142 -B 4096" ;;
	5)	echo "-s 142 -B 4096 + host/port filter" ;;
	6)	echo "-s 142 -B 4096 + GET filter" ;;
	esac
}
menski_paper() {
	case $1 in
	1) echo 7.66 ;; 2) echo 1.66 ;; 3) echo 1.90 ;; 4) echo 0.145 ;;
	5) echo "-" ;; 6) echo 0.004 ;;
	esac
}

na=$(live_na)
if [ -n "$na" ]; then
	bench_na_report "$NAME" "Menski's six configurations (seed 000)" menski "$na"
	exit 0
fi
bench_live_setup || exit 1

echo "config,tcpdump,rep,get_sent,bg_sent,got,drop_pct,td_captured,td_dropped" >"$CSV"
# The base settings of capture_run are -s 65535 -B 2048; CARGS come
# later on the command line and override them.
export CR_BG="random1518 $MENSKI_BG_RATE"
export CR_COUNT="tcp dst port 80"
for c in $MENSKI_CONFIGS; do
	cfg_args "$c"
	rep=1
	while [ "$rep" -le "$MENSKI_REPS" ]; do
		for td in stock ours; do
			capture_run "$td" file http "$MENSKI_RATE" "$MENSKI_SECS" "${CARGS[@]}"
			rc=$?
			[ "$rc" = 2 ] && continue
			echo "$c,$td,$rep,$CR_SENT,${CR_BGSENT:-na},$CR_GOT,$CR_LOSS,$CR_TDCAP,$CR_TDDROP" >>"$CSV"
			log "menski $c $td rep $rep: GET sent $CR_SENT got $CR_GOT drop $CR_LOSS%"
		done
		rep=$((rep + 1))
	done
done
unset CR_BG CR_COUNT

col() {	# col CONFIG TCPDUMP FIELD: values of FIELD (1-based CSV column)
	awk -F, -v c="$1" -v t="$2" -v f="$3" 'NR > 1 && $1 == c && $2 == t { print $f }' "$CSV"
}

declare -A MED
{
	echo "## Menski's six configurations (seed 000, tcpdump Analyse)"
	echo
	echo "HTTP GET frames at $MENSKI_RATE frames/s plus 1514-byte random UDP frames at"
	echo "$MENSKI_BG_RATE frames/s, ${MENSKI_SECS} s, captured to a file on local disk; drop % ="
	echo "GET frames sent but not in the file.  Median (min-max) of $MENSKI_REPS run(s)."
	echo "Menski's column: tcpdump 4.3.0 on a loaded nginx, median of 7 runs."
	echo
	md_head "#" configuration "stock drop %" "ours drop %" ours/stock "Menski 2016 drop %"
	for c in $MENSKI_CONFIGS; do
		# shellcheck disable=SC2046 # "MEDIAN MIN MAX N"
		set -- $(col "$c" stock 7 | stats)
		s_m=$1 s_fmt=$(fmt_spread "$1" "$2" "$3")
		# shellcheck disable=SC2046
		set -- $(col "$c" ours 7 | stats)
		o_m=$1 o_fmt=$(fmt_spread "$1" "$2" "$3")
		MED[$c,stock]=$s_m
		MED[$c,ours]=$o_m
		md_row "$c" "\`$(cfg_label "$c")\`" "$s_fmt" "$o_fmt" \
		    "$(ratio "$o_m" "$s_m")" "$(menski_paper "$c")"
	done
	echo
	echo "Filters: host/port = \`$HOST_FILTER\`; GET = \`$GET_FILTER\`."
	echo "Raw data: [menski.csv](menski.csv)."
	echo
} >"$MD"

# Bar chart: drop % per configuration, stock and ours.
dat=$BENCH_OUT/menski.dat
for c in $MENSKI_CONFIGS; do
	echo "$c ${MED[$c,stock]} ${MED[$c,ours]}"
done | sed 's/ na/ NaN/g' >"$dat"
# x tics: one per configuration run, in order
xt=
i=0
for c in $MENSKI_CONFIGS; do
	case $c in
	1) l="1 default" ;; 2) l="2 -s142" ;; 3) l="3 -B4096" ;;
	4) l="4 both" ;; 5) l="5 +host/port" ;; 6) l="6 +GET" ;;
	esac
	xt="$xt${xt:+, }'$l' $i"
	i=$((i + 1))
done
cat >"$BENCH_OUT/menski.gp" <<EOF
set terminal pngcairo size 800,420 font ',9'
set output '$BENCH_OUT/menski.png'
set title "Menski's configurations: drop % of GET frames (median)"
set style data histograms
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set ylabel 'drop %'
set yrange [0:*]
set xtics ($xt)
plot '$dat' using 2 title 'stock', '' using 3 title 'ours'
EOF
gnuplot "$BENCH_OUT/menski.gp" 2>"$BENCH_OUT/menski.gp.err" || log "gnuplot failed for menski"
echo "![Menski configurations](menski.png)" >>"$MD"
echo >>"$MD"

: >"$HL"
for c in 1 4 6; do
	echo "Menski #$c drop % ($(cfg_label "$c"))|stock ${MED[$c,stock]}, ours ${MED[$c,ours]} (paper $(menski_paper "$c"))" >>"$HL"
done
exit 0
