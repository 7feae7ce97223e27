#!/bin/bash
# bench/sustained.sh -- sustained load: the maximum lossless rate when
# more frames are sent than any buffer can hold.
#
# loss.sh sends 2-s bursts, which a 128 MiB ring or mbuffer's 100 MB can
# absorb whatever the disk does: a buffer absorbs a burst, not a rate.
# Here every run sends SUSTAINED_FRAMES frames (full 4,000,000, about
# 1 GB of HTTP frames; at most SUSTAINED_MAX_SECS seconds' worth, see
# below), so only what a tool writes per second counts.  Per frame type
# and sink, for each configuration, the rate goes up by factors of 2
# until a rate loses, then SUSTAINED_BISECT geometric bisection steps,
# from half of what the sink carries uncompressed, or for a tool that
# compresses from twice that (runs at low rates are the long ones, and
# no compressor was lossy there in trial runs); every rate is run
# SUSTAINED_REPS times and is lossless when its median loss is 0 (the
# rule of loss.sh, ml_point in lib.sh).
#
# Every tool gets the same CPUs: the capture and the programs it pipes
# into (zstd, lz4, mbuffer) run on SUSTAINED_CPUS (taskset -c; default
# the last CPU), the sender on SUSTAINED_GEN_CPUS (the others; on a veth
# pair the sender's CPU also does the receive path's work).  Our writer
# thread and its compression helpers share the capture's CPU like the
# pipe's compressor does.
#
# Sinks: slow20 and slow60 (-w - into slowsink at 20 and 60 MB/s, a slow
# disk) and file (local disk, here the page cache).
# Configurations (config_list in lib.sh):
#	ours-zstd+w	our default: --compress=zstd, adaptive, writer thread
#	ours-zstd:N+w	the same at a fixed level N
#	stock, stock+zstd, stock+lz4, stock+mbuffer, dumpcap, netsniff-ng
#	stock+zstd-adapt	tcpdump -w - | zstd --adapt: the peer a user
#			who wants adaptive compression would pick, zstd
#			choosing its level by how fast its output drains
# The report gives, for the adaptive writer, the levels it wrote blocks
# at in the runs at its maximum lossless rate (tcpdump prints them);
# zstd --adapt does not say which levels it used.
# The plots, sustained-SINK.png, give the median loss at each rate tried
# against the rate offered, min-max as error bars, a line per
# configuration and a panel per frame type (sustainedpoints.csv has the
# points): where the table gives only the bracket, they show how fast
# each tool's loss grows above it.  Runs that do not count (below) are
# left out of both.
#
# A run at a low rate would take long (4M frames at 50k frames/s is 80
# s): a run sends at most SUSTAINED_MAX_SECS (20) seconds' worth, which
# can only favour a tool with a buffer (mbuffer holds 100 MB, 5 MB/s
# over 20 s); the table says how many frames each maximum was run with.
#
# A run counts only if the sender kept to its rate (SUSTAINED_PPS_MIN,
# 97%): on a slower machine the sender, which also does the receive
# path's work, may top out below the rates a capture can take, and a
# run at 250k frames/s is no evidence of a maximum of 416k.  Such runs
# stay in the CSV (sent frames/s is the pps column) and the report says
# how fast the sender could go.
#
# The table and the plots are made from the CSV alone, so a run that
# was cut short still has its report: SUSTAINED_FROM=FILE makes the
# report of the CSV FILE of an earlier run and runs nothing (no root
# needed).
#
# Environment: SUSTAINED_TYPES, SUSTAINED_SINKS, SUSTAINED_CONFIGS,
# SUSTAINED_FRAMES, SUSTAINED_MAX_SECS, SUSTAINED_REPS, SUSTAINED_BISECT,
# SUSTAINED_MAX_RATE (the top of the sweep, frames/s), SUSTAINED_RATES
# (a fixed sweep instead of the doubling one), SUSTAINED_CPUS,
# SUSTAINED_GEN_CPUS, SUSTAINED_PPS_MIN, SUSTAINED_FROM.

. "$(dirname "$0")/lib.sh"
bench_experiment sustained || exit 1
PTCSV=$BENCH_OUT/sustainedpoints.csv

if [ "$BENCH_MODE" = quick ]; then
	: "${SUSTAINED_TYPES:=http}"
	: "${SUSTAINED_SINKS:=slow20}"
	: "${SUSTAINED_CONFIGS:=ours-zstd+w stock+zstd stock+zstd-adapt}"
	: "${SUSTAINED_FRAMES:=300000}"
	: "${SUSTAINED_REPS:=1}"
	: "${SUSTAINED_BISECT:=0}"
	: "${SUSTAINED_RATES:=200000}"
else
	# The headline case.  The whole plan (bench/README says how long
	# each takes): SUSTAINED_TYPES="http http-real fixed1518 random1518"
	# SUSTAINED_SINKS="slow20 slow60 file".
	: "${SUSTAINED_TYPES:=http}"
	: "${SUSTAINED_SINKS:=slow20}"
	: "${SUSTAINED_CONFIGS:=ours-zstd+w ours-zstd:-5+w ours-zstd:1+w ours-zstd:5+w stock stock+zstd stock+zstd-adapt stock+lz4 stock+mbuffer dumpcap netsniff-ng}"
	: "${SUSTAINED_FRAMES:=4000000}"
	: "${SUSTAINED_REPS:=3}"
	: "${SUSTAINED_BISECT:=3}"
fi
: "${SUSTAINED_MAX_SECS:=20}"
# About what sluice-gen offers with a capture attached on 2 cores.
: "${SUSTAINED_MAX_RATE:=1000000}"
: "${SUSTAINED_PPS_MIN:=0.97}"
NCPU=$(nproc)
if [ "$NCPU" -ge 2 ]; then
	: "${SUSTAINED_CPUS:=$((NCPU - 1))}"
	: "${SUSTAINED_GEN_CPUS:=0-$((NCPU - 2))}"
fi
# shellcheck disable=SC2034 # read by ml_point (lib.sh)
ML_REPS=$SUSTAINED_REPS
AUTO=ours-zstd+w

TITLE="Sustained load: maximum lossless rate"
if [ -n "${SUSTAINED_FROM:-}" ]; then
	if [ ! -s "$SUSTAINED_FROM" ]; then
		echo "sustained.sh: $SUSTAINED_FROM: no such CSV" >&2
		exit 1
	fi
else
	na=$(live_na)
	if [ -n "$na" ]; then
		bench_na_report "$NAME" "$TITLE" "sustained max lossless load" "$na"
		exit 0
	fi
	bench_live_setup || exit 1
	case " $SUSTAINED_TYPES " in
	*" http-real "*)	bench_http_trace ;;
	esac
fi

# sink_bytes SINK: bytes/s the sink takes; 0 for the file.
sink_bytes() {
	case $1 in
	slow*)	echo "${1#slow}000000" ;;
	*)	echo 0 ;;
	esac
}

# frame_bytes TYPE: mean bytes per record in a pcap file of TYPE frames
# (the frame and its 16-byte record header), from 20000 of them.
frame_bytes() {
	_fb=$BENCH_SCRATCH/sample.pcap
	if [ "$1" = http-real ]; then
		[ -n "${HTTP_TRACE:-}" ] || { echo 0; return; }
		_fb=$HTTP_TRACE
	elif ! "$GEN" --type "$1" --count 20000 --seed 7 --out "$_fb" \
	    2>/dev/null; then
		echo 0
		return
	fi
	_fn=$(td_run ours -n -q -r "$_fb" 2>/dev/null | wc -l)
	awk -v s="$(stat -c %s "$_fb")" -v n="$_fn" \
	    'BEGIN { printf "%d", (n > 0) ? (s - 24) / n : 0 }'
}

# compresses CONFIG: true for a configuration that compresses.
compresses() {
	case $1 in
	ours-*|stock+zstd|stock+zstd-adapt|stock+lz4|perpacket-*)	return 0 ;;
	esac
	return 1
}

# sweep_start SINK TYPE CONFIG: the first rate of the sweep, half of
# what the sink carries uncompressed, twice that for CONFIG that
# compresses (for the file, 100k frames/s).
sweep_start() {
	_b=$(sink_bytes "$1")
	_f=${FBYTES[$2]:-0}
	if [ "$_b" = 0 ] || [ "$_f" = 0 ]; then
		echo 100000
		return
	fi
	_x=0.5
	compresses "$3" && _x=2
	awk -v b="$_b" -v f="$_f" -v x="$_x" 'BEGIN { r = int(b / f * x / 1000) * 1000; print (r < 1000) ? 1000 : r }'
}

# run_frames RATE: frames sent by a run at RATE.
run_frames() {
	awk -v r="$1" -v n="$SUSTAINED_FRAMES" -v s="$SUSTAINED_MAX_SECS" \
	    'BEGIN { m = r * s; printf "%d", (m < n) ? m : n }'
}

# one RATE PHASE CONFIG SINK TYPE: a run, appended to the CSV; prints
# the loss (or "na").  Runs in a subshell (ml_point): state goes to the CSV.
one() {
	_frames=$(run_frames "$1")
	SLOW_RATE=$(sink_bytes "$4")
	_cs=slow
	[ "$SLOW_RATE" = 0 ] && _cs=file
	CR_FRAMES=$_frames CR_CPUS=${SUSTAINED_CPUS:-} \
	    CR_GEN_CPUS=${SUSTAINED_GEN_CPUS:-} \
	    capture_run "$3" "$_cs" "$5" "$1" \
	    "$(awk -v n="$_frames" -v r="$1" 'BEGIN { printf "%.1f", n / r }')"
	if [ $? = 2 ]; then
		echo na
		return
	fi
	echo "$2,$5,$4,$3,$1,$_frames,$CR_SENT,$CR_PPS,$CR_GOT,$CR_LOSS,$CR_TDCAP,$CR_TDDROP,$(echo "$CR_LEVELS" | tr ',' ';')" >>"$CSV"
	log "sustained $5 $4 $3 rate=$1 frames=$_frames: sent $CR_PPS/s, got $CR_GOT loss $CR_LOSS%${CR_LEVELS:+ levels $CR_LEVELS}"
	if ! kept_rate "$CR_PPS" "$1"; then
		log "sustained: the sender fell short of $1 frames/s: the run does not count"
		echo na
		return
	fi
	echo "$CR_LOSS"
}

# kept_rate PPS RATE: true when the sender sent at least
# SUSTAINED_PPS_MIN of RATE frames/s.
kept_rate() {
	awk -v p="$1" -v r="$2" -v m="$SUSTAINED_PPS_MIN" \
	    'BEGIN { exit !(p != "na" && p + 0 >= m * r) }'
}

# csv_bracket TYPE SINK CONFIG: "LO HI" from the CSV's runs in which the
# sender kept to its rate, by the rule of the search: a rate is
# lossless when most of its runs lost nothing (the median loss is 0);
# HI is the lowest lossy rate ("na": none), LO the highest lossless one
# below it (0: none).  Prints nothing when no run counts.
csv_bracket() {
	awk -F, -v t="$1" -v s="$2" -v c="$3" -v m="$SUSTAINED_PPS_MIN" '
	    NR > 1 && $2 == t && $3 == s && $4 == c && $8 + 0 >= m * $5 {
		n[$5]++
		if ($10 + 0 == 0)
			zero[$5]++
	    }
	    END {
		hi = -1
		for (r in n)
			if (2 * zero[r] <= n[r] && (hi < 0 || r + 0 < hi))
				hi = r + 0
		lo = 0
		for (r in n)
			if (2 * zero[r] > n[r] && r + 0 > lo &&
			    (hi < 0 || r + 0 < hi))
				lo = r + 0
		for (r in n) {
			printf "%d %s\n", lo, (hi < 0) ? "na" : hi
			exit
		}
	    }' "$CSV"
}

# csv_runs TYPE SINK CONFIG: how many runs the CSV has of CONFIG;
# csv_frames TYPE SINK CONFIG RATE: the frames its runs at RATE sent (the
# first one's).
csv_runs() {
	awk -F, -v t="$1" -v s="$2" -v c="$3" '
	    NR > 1 && $2 == t && $3 == s && $4 == c { n++ }
	    END { print n + 0 }' "$CSV"
}
csv_frames() {
	awk -F, -v t="$1" -v s="$2" -v c="$3" -v r="$4" '
	    NR > 1 && $2 == t && $3 == s && $4 == c && $5 == r { print $6; exit }' "$CSV"
}

# sender_max: the highest rate the sender reached in any run, frames/s.
sender_max() {
	awk -F, 'NR > 1 && $8 + 0 > m { m = $8 + 0 } END { print m + 0 }' "$CSV"
}

# short_runs: runs in which the sender fell short of its rate.
short_runs() {
	awk -F, -v m="$SUSTAINED_PPS_MIN" 'NR > 1 && $8 + 0 < m * $5 { n++ }
	    END { print n + 0 }' "$CSV"
}

# search CONFIG SINK TYPE: the maximum lossless rate: maxload_search
# (lib.sh) over the doubling sweep (or SUSTAINED_RATES), which stops at
# its first lossy rate, then SUSTAINED_BISECT bisection steps.  Sets
# ML_LO, ML_HI ("na": lossless at every rate) and ML_VALID.
search() {
	if [ -n "${SUSTAINED_RATES:-}" ]; then
		_rates=$SUSTAINED_RATES
	else
		_rates=$(awk -v r="$(sweep_start "$2" "$3" "$1")" -v m="$SUSTAINED_MAX_RATE" \
		    'BEGIN { while (r < m) { print r; r *= 2 } print m }')
	fi
	ML_SWEEP_STOP=1 maxload_search one "$_rates" "$SUSTAINED_BISECT" "$@"
}

# levels_at TYPE SINK CONFIG RATE: the levels of the runs at RATE, one
# per run, separated by " / ".
levels_at() {
	awk -F, -v t="$1" -v s="$2" -v c="$3" -v r="$4" '
	    $2 == t && $3 == s && $4 == c && $5 == r && $13 != "" {
		gsub(/;/, ",", $13); out = out sep $13; sep = " / " }
	    END { print out }' "$CSV"
}

declare -A FBYTES LO HI NOTE
if [ -n "${SUSTAINED_FROM:-}" ]; then
	[ "$SUSTAINED_FROM" -ef "$CSV" ] || cp "$SUSTAINED_FROM" "$CSV"
	log "sustained: the report of $SUSTAINED_FROM; nothing is run"
else
	echo "phase,type,sink,config,rate,frames,sent,pps,got,loss_pct,td_captured,td_dropped,levels" >"$CSV"
fi
for type in $SUSTAINED_TYPES; do
	FBYTES[$type]=$(frame_bytes "$type")
	log "sustained: $type records average ${FBYTES[$type]} bytes"
done
for type in $SUSTAINED_TYPES; do
	for sink in $SUSTAINED_SINKS; do
		for cfg in $SUSTAINED_CONFIGS; do
			if [ -z "${SUSTAINED_FROM:-}" ]; then
				na=$(config_na "$cfg")
				if [ "$type" = http-real ] && [ -z "${HTTP_TRACE:-}" ]; then
					na="no HTTP trace: $HTTP_TRACE_NA"
				fi
				if [ -n "$na" ]; then
					NOTE[$type,$sink,$cfg]="n/a: $na"
					continue
				fi
				search "$cfg" "$sink" "$type"
			fi
			# shellcheck disable=SC2046 # "LO HI"
			set -- $(csv_bracket "$type" "$sink" "$cfg")
			if [ $# != 2 ] && [ "$(csv_runs "$type" "$sink" "$cfg")" = 0 ]; then
				NOTE[$type,$sink,$cfg]="n/a: not run"
				continue
			elif [ $# != 2 ]; then
				NOTE[$type,$sink,$cfg]="n/a: no run that counts (see sustained.log)"
				continue
			fi
			LO[$type,$sink,$cfg]=$1
			HI[$type,$sink,$cfg]=$2
		done
	done
done

# best TYPE SINK KIND: "CONFIG RATE" of the best configuration of KIND
# (peer: the tools users would pick instead; fixed: ours at a fixed
# level), or nothing.
best() {
	_bc=
	_br=-1
	for _c in $SUSTAINED_CONFIGS; do
		case $3 in
		peer)	is_peer "$_c" || continue ;;
		fixed)	case $_c in ours-*:*) ;; *) continue ;; esac ;;
		esac
		_v=${LO[$1,$2,$_c]:-}
		[ -n "$_v" ] || continue
		# At the same rate, one lossless at every rate tried is
		# the better.
		if [ "$_v" -gt "$_br" ] || { [ "$_v" = "$_br" ] &&
		    [ "${HI[$1,$2,$_c]}" = na ] &&
		    [ "${HI[$1,$2,$_bc]}" != na ]; }; then
			_bc=$_c
			_br=$_v
		fi
	done
	[ -n "$_bc" ] && echo "$_bc $_br"
}

sink_name() {
	case $1 in
	slow*)	echo "slowsink at ${1#slow} MB/s" ;;
	*)	echo "a file" ;;
	esac
}

# The points (median loss and spread per rate, the runs that count) and
# a plot per sink (loss_points, loss_plot in lib.sh, as loss.sh's).
loss_points "$CSV" "$PTCSV" "$SUSTAINED_PPS_MIN"
for sink in $SUSTAINED_SINKS; do
	loss_plot "sustained-$sink" "Sustained load, $sink: loss vs offered rate, median of $SUSTAINED_REPS (bars: min-max)" \
	    "$PTCSV" "$sink" "$SUSTAINED_TYPES" "$SUSTAINED_CONFIGS"
done

{
	echo "## $TITLE"
	echo
	echo "Every run sends $SUSTAINED_FRAMES frames (or, at a low rate, at most"
	echo "$SUSTAINED_MAX_SECS s of them: the frames column), more than any ring or"
	echo "buffer here holds, so a buffer cannot stand in for throughput.  -s $SNAP"
	echo "-B $BUFKB; loss = frames sent but not in the result."
	if [ -n "${SUSTAINED_RATES:-}" ]; then
		echo "The rates are a fixed list, $SUSTAINED_RATES frames/s,"
		echo "up to the first that loses, then"
	else
		echo "The rate doubles"
		echo "from half of what the sink carries uncompressed (twice that for a tool"
		echo "that compresses) until a rate loses, then"
	fi
	echo "$SUSTAINED_BISECT bisection step(s); each rate $SUSTAINED_REPS run(s), lossless when the"
	echo "median loss is 0.  Same CPUs for every tool: the capture and what it"
	echo "pipes into on CPU ${SUSTAINED_CPUS:-any}, the sender on CPU ${SUSTAINED_GEN_CPUS:-any}."
	echo "ours-zstd+w = our tcpdump \`--compress=zstd\` (adaptive), ours-zstd:N+w at"
	echo "a fixed level, both with the writer thread (\`--writer-ring=128m\`)."
	echo "Peers: stock+zstd = stock tcpdump \`-w - | zstd -1\`, stock+zstd-adapt ="
	echo "\`-w - | zstd --adapt\` (zstd picks its level by how fast its output drains),"
	echo "stock+lz4 = \`| lz4 -1\`, stock+mbuffer = \`| mbuffer -m 100M\`."
	echo "A run counts only if the sender kept to $SUSTAINED_PPS_MIN of its rate"
	_short=$(short_runs)
	if [ "$_short" = 0 ]; then
		echo "(every run here did)."
	else
		echo "($_short runs here did not; the fastest the sender went was"
		echo "$(sender_max) frames/s, so no maximum above that is measured)."
	fi
	[ -n "${SUSTAINED_FROM:-}" ] &&
	    echo "Made from the CSV of an earlier run (SUSTAINED_FROM); nothing was run for it."
	echo
	for type in $SUSTAINED_TYPES; do
		for sink in $SUSTAINED_SINKS; do
			echo "### $type into $(sink_name "$sink")"
			echo
			echo "Records average ${FBYTES[$type]} bytes."
			echo
			md_head configuration "max lossless frames/s" "input MB/s" \
			    "frames per run" "levels written ($AUTO)"
			for cfg in $SUSTAINED_CONFIGS; do
				if [ -n "${NOTE[$type,$sink,$cfg]:-}" ]; then
					md_row "$cfg" "${NOTE[$type,$sink,$cfg]}" "" "" ""
					continue
				fi
				lo=${LO[$type,$sink,$cfg]}
				lev=
				[ "$cfg" = "$AUTO" ] && [ "$lo" != 0 ] &&
				    lev=$(levels_at "$type" "$sink" "$cfg" "$lo")
				md_row "$cfg" "$(fmt_bracket "$lo" "${HI[$type,$sink,$cfg]}")" \
				    "$(awk -v r="$lo" -v f="${FBYTES[$type]}" 'BEGIN { printf "%.0f", r * f / 1e6 }')" \
				    "$(csv_frames "$type" "$sink" "$cfg" "$lo")" "$lev"
			done
			echo
		done
	done
	echo "Loss against the rate offered: the median of the runs at each rate"
	echo "tried (bars: min-max), runs in which the sender fell short left out."
	echo
	for sink in $SUSTAINED_SINKS; do
		echo "![loss vs offered rate, into $(sink_name "$sink")](sustained-$sink.png)"
		echo
	done
	echo "Raw data: [sustained.csv](sustained.csv) (every run, with the levels"
	echo "the adaptive writer reported), [sustainedpoints.csv](sustainedpoints.csv)"
	echo "(median and spread per rate, the plotted points)."
	echo
} >"$MD"

: >"$HL"
# versus A_LO A_HI B_LO B_HI NAME [WHO]: the adaptive writer's bracket
# (A_LO, A_HI) against that of NAME (WHO: which configuration that is),
# for the headline.  A bracket open above ("na": lossless at every rate
# tried) makes the ratio a bound, not a measurement: "x>=" when only the
# adaptive writer's is open, "x<=" when only NAME's is; when both are,
# the run tells them apart only as far as its rates went.
versus() {
	_vw=${6:+$6 }
	if [ "$3" = 0 ]; then
		echo "$5 lossy at every rate tried (${_vw}< $4)"
	elif [ "$2" = na ] && [ "$4" = na ]; then
		echo "$5 as well (${_vw}>= $3; neither lost at any rate tried)"
	elif [ "$1" = 0 ]; then
		echo "$5 (${_vw}$3)"
	elif [ "$2" = na ]; then
		echo "x>=$(ratio "$1" "$3") $5 (${_vw}$3)"
	elif [ "$4" = na ]; then
		echo "x<=$(ratio "$1" "$3") $5 (${_vw}>= $3)"
	else
		echo "x$(ratio "$1" "$3") $5 (${_vw}$3)"
	fi
}
for type in $SUSTAINED_TYPES; do
	for sink in $SUSTAINED_SINKS; do
		a=${LO[$type,$sink,$AUTO]:-}
		[ -n "$a" ] || continue
		ah=${HI[$type,$sink,$AUTO]}
		line="sustained $type -> $sink, max lossless frames/s|adaptive $(fmt_bracket "$a" "$ah")"
		# shellcheck disable=SC2046 # "CONFIG RATE"
		set -- $(best "$type" "$sink" peer)
		[ $# = 2 ] && line="$line; $(versus "$a" "$ah" "$2" \
		    "${HI[$type,$sink,$1]}" "the best peer" "$1")"
		# shellcheck disable=SC2046
		set -- $(best "$type" "$sink" fixed)
		[ $# = 2 ] && line="$line; $(versus "$a" "$ah" "$2" \
		    "${HI[$type,$sink,$1]}" "our best fixed level" "${1#ours-}")"
		s=${LO[$type,$sink,stock]:-}
		[ -n "$s" ] && line="$line; $(versus "$a" "$ah" "$s" \
		    "${HI[$type,$sink,stock]}" stock)"
		echo "$line" >>"$HL"
	done
done
exit 0
