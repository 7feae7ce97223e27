#!/bin/bash
# bench/erspan.sh -- ERSPAN, 1 % selectivity: filtering the mirrored
# frames in the kernel against capturing all GRE and decapsulating and
# filtering in user space (Satten, seed 002:
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
# lossless load by sweep and bisection (maxload_search, lib.sh), as in
# loss.sh.  n/a until our tcpdump has --erspan.
#
# Then the cost, at one fixed rate (ERSPAN_CPU_RATE frames/s
# for ERSPAN_CPU_SECS s, ERSPAN_CPU_REPS times, medians): the frames
# copied to user space (tcpdump's "received by filter", the kernel's
# count of frames that passed the socket filter) and the CPU time per
# mirrored frame, for the three configurations above and stock tcpdump
# "proto gre" -w FILE alone (stock-gre).  CPU is perf stat's task-clock
# (user + system) of the capturing processes (both of stock+decap).  The
# kernel's receive path, socket filter included, is not in it: on a veth
# pair it runs in softirq context in the sender's syscall and is charged
# to the sender, whose task-clock is recorded in the CSV (and that of a
# run with no capture, "base"), but it varies more between identical
# runs than that path costs, so it is not attributed.  The goals:
# copied <= 1.1 x the matching frames; CPU <= 0.3 x that of stock+decap.

. "$(dirname "$0")/lib.sh"
bench_experiment erspan || exit 1

if [ "$BENCH_MODE" = quick ]; then
	: "${ERSPAN_RATES:=200000 800000}"
	: "${ERSPAN_BISECT:=0}"
	: "${ERSPAN_CPU_RATE:=20000}"
	: "${ERSPAN_CPU_SECS:=2}"
	: "${ERSPAN_CPU_REPS:=1}"
else
	: "${ERSPAN_RATES:=100000 200000 400000 800000}"
	: "${ERSPAN_BISECT:=2}"
	: "${ERSPAN_CPU_RATE:=50000}"
	: "${ERSPAN_CPU_SECS:=4}"
	: "${ERSPAN_CPU_REPS:=3}"
fi
: "${BENCH_BURST:=2}"
CONFIGS="ours-erspan ours-erspanfilter stock+decap"
FILTER='udp[12:4] % 100 = 0'
export ERSPAN_FILTER=$FILTER

na=$(live_na)
[ -z "$na" ] && [ ! -x "$TD_OURS" ] && na="our tcpdump is not built"
[ -z "$na" ] && ! td_has ours --erspan && na="our tcpdump has no --erspan yet"
if [ -n "$na" ]; then
	bench_na_report "$NAME" "ERSPAN, 1 % selectivity (Satten)" \
	    "ERSPAN 1% selectivity" "$na"
	exit 0
fi
bench_live_setup || exit 1

# capture arguments of each configuration (after -s/-B/-w)
# shellcheck disable=SC2317 # called from one, through maxload_search
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
# one RATE PHASE CONFIG: a run, appended to the CSV; prints the loss (or
# "na").  The measurement of maxload_search (lib.sh).
# shellcheck disable=SC2317 # called by maxload_search
one() {
	cfg_args "$3"
	capture_run "$3" file slammer "$1" "$BENCH_BURST" "${CARGS[@]}"
	[ $? = 2 ] && { echo na; return; }
	echo "$2,$3,$1,$BENCH_BURST,$CR_SENT,$CR_PPS,$CR_EXPECTED,$CR_GOT,$CR_LOSS,$CR_TDCAP,$CR_TDDROP" >>"$CSV"
	log "erspan $2 $3 rate=$1: sent $CR_SENT, $CR_EXPECTED matching, got $CR_GOT, loss $CR_LOSS%"
	echo "$CR_LOSS"
}

for cfg in $CONFIGS; do
	maxload_search one "$ERSPAN_RATES" "$ERSPAN_BISECT" "$cfg"
	MAXL[$cfg]=$ML_LO
	MAXH[$cfg]=$ML_HI
done
unset CR_GEN_ARGS CR_EXPECT_EVERY

# ---------------------------------------------------------------------
# CPU per mirrored frame and frames copied to user space, at one rate.

CPU_CONFIGS="ours-erspan ours-erspanfilter stock+decap stock-gre"
CPUCSV=$BENCH_OUT/erspan-cpu.csv
PERF=(perf stat -x ',' -e task-clock)

# perf_ms FILE: the task-clock (ms) perf stat -x, wrote to FILE, or na.
perf_ms() {
	_v=$(awk -F, '$3 == "task-clock" { print $1 }' "$1" 2>/dev/null)
	case $_v in
	[0-9]*)	echo "$_v" ;;
	*)	echo na ;;
	esac
}

# td_count FILE WHAT: N of tcpdump's last "N packets WHAT" line in FILE.
td_count() {
	_v=$(sed -n "s/^\([0-9]*\) packets\{0,1\} $2\$/\1/p" "$1" | tail -1)
	echo "${_v:-na}"
}

# cpu_run CONFIG: send ERSPAN_CPU_RATE * ERSPAN_CPU_SECS frames while
# CONFIG captures ("base": nothing does).  Sets CPU_CAP (ms of the
# capturing processes), CPU_GEN (ms of the sender), CPU_SENT, CPU_RECV
# (frames copied to user space) and CPU_GOT (matching frames kept);
# returns 1 when the run broke.
cpu_run() {
	_s=$BENCH_SCRATCH
	rm -f "$_s"/cpu.* "$_s/cpufifo"
	CPU_CAP=0 CPU_GEN=na CPU_SENT=na CPU_RECV=na CPU_GOT=na
	_cpid=
	_dpid=
	_out=$_s/cpu.pcap
	case $1 in
	ours-erspan)	_w=ours; _args=(--erspan "$FILTER") ;;
	ours-erspanfilter) _w=ours; _args=("erspan and $FILTER") ;;
	stock-gre)	_w=stock; _args=("proto gre") ;;
	stock+decap)	_w=stock; _args=("proto gre"); _out=- ;;
	base)		_w= ;;
	*)		return 1 ;;
	esac
	if [ -n "$_w" ]; then
		_lib=$LIB_OURS
		_td=$TD_OURS
		if [ "$_w" = stock ]; then
			_lib=$LIB_STOCK
			_td=$TD_STOCK
		fi
		_cmd=("${PERF[@]}" -o "$_s/cpu.perf0" -- env "LD_LIBRARY_PATH=$_lib"
		    "$_td" -n -i "$VETH_B" -s "$SNAP" -B "$BUFKB" -w "$_out" "${_args[@]}")
		cmdlog "ip netns exec $NS_B ${_cmd[*]}"
		if [ "$_out" = - ]; then
			mkfifo "$_s/cpufifo" || return 1
			"${PERF[@]}" -o "$_s/cpu.perf1" -- "$BENCH_TOOLS/erspan-decap" \
			    <"$_s/cpufifo" >"$_s/cpu.pcap" 2>"$_s/cpu.err1" &
			_dpid=$!
			cmdlog "  ${PERF[*]} -o cpu.perf1 -- erspan-decap <cpufifo >cpu.pcap"
			ip netns exec "$NS_B" "${_cmd[@]}" >"$_s/cpufifo" 2>"$_s/cpu.err" &
		else
			ip netns exec "$NS_B" "${_cmd[@]}" 2>"$_s/cpu.err" &
		fi
		_cpid=$!
		capture_wait_ready "$_cpid" 1 "$_s/cpu.err"
		# perf's child, after env exec'd it: the tcpdump to signal.
		_tpid=$(pgrep -P "$_cpid" | head -1)
		if ! proc_alive "$_cpid" || [ -z "$_tpid" ]; then
			log "erspan cpu: $1 did not start: $(head -2 "$_s/cpu.err")"
			proc_stop "$_cpid" TERM 20
			[ -n "$_dpid" ] && proc_stop "$_dpid" TERM 20
			return 1
		fi
	fi

	_rx0=$(rx_packets)
	_count=$((ERSPAN_CPU_RATE * ERSPAN_CPU_SECS))
	_gen=("${PERF[@]}" -o "$_s/cpu.perfg" -- "$GEN" --type slammer
	    --count "$_count" --rate "$ERSPAN_CPU_RATE" --seed 7 --erspan 3
	    --iface "$VETH_A")
	cmdlog "ip netns exec $NS_A ${_gen[*]}"
	ip netns exec "$NS_A" "${_gen[@]}" 2>"$_s/cpu.gen"
	CPU_SENT=$(sed -n 's/.*: sent \([0-9]*\) frames.*/\1/p' "$_s/cpu.gen")
	CPU_GEN=$(perf_ms "$_s/cpu.perfg")
	: "${CPU_SENT:=na}"
	[ -z "$_w" ] && return 0

	# Every frame has reached the receive path; then tcpdump has
	# handled what passed its filter: captured + dropped = received,
	# and received stands still (SIGUSR1 makes it print its counts).
	_i=0
	while [ "$_i" -lt 50 ] && [ "$CPU_SENT" != na ] &&
	    [ $(($(rx_packets) - _rx0)) -lt "$CPU_SENT" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_prev=-1
	_i=0
	while [ "$_i" -lt 100 ] && proc_alive "$_tpid"; do
		kill -USR1 "$_tpid" 2>/dev/null
		sleep 0.2
		_i=$((_i + 1))
		_st=$(td_counts "$_s/cpu.err")
		_done=$(echo "$_st" | awk -v p="$_prev" \
		    'NF == 3 { print ($1 + $3 >= $2 && $2 == p) ? 1 : 0 }')
		[ "$_done" = 1 ] && break
		_prev=$(echo "$_st" | awk '{ print $2 }')
		: "${_prev:=-1}"
	done
	kill -INT "$_tpid" 2>/dev/null
	# perf ends with its tcpdump, erspan-decap at end of input: wait
	# for them (signal 0 sends nothing), 20 s at most.
	for _p in $_cpid $_dpid; do
		proc_stop "$_p" 0 200
	done

	CPU_RECV=$(td_count "$_s/cpu.err" "received by filter")
	CPU_CAP=$(perf_ms "$_s/cpu.perf0")
	if [ -n "$_dpid" ]; then
		CPU_CAP=$(awk -v a="$CPU_CAP" -v b="$(perf_ms "$_s/cpu.perf1")" \
		    'BEGIN { print (a == "na" || b == "na") ? "na" : a + b }')
	fi
	if [ "$1" = stock-gre ]; then
		CPU_GOT=$(seqcount "$_s/cpu.pcap" "" "erspan and $FILTER")
	else
		CPU_GOT=$(seqcount "$_s/cpu.pcap")
	fi
	rm -f "$_s"/cpu.pcap "$_s/cpufifo"
	[ "$CPU_CAP" != na ] && [ "$CPU_RECV" != na ] && [ "$CPU_SENT" != na ]
}

echo "config,rep,rate,sent,matching,copied,got,capture_ms,sender_ms" >"$CPUCSV"
CPU_NA=
if ! "${PERF[@]}" true >/dev/null 2>&1; then
	CPU_NA="perf stat does not work here"
fi
rep=1
while [ -z "$CPU_NA" ] && [ "$rep" -le "$ERSPAN_CPU_REPS" ]; do
	for cfg in base $CPU_CONFIGS; do
		if cpu_run "$cfg"; then
			m=$(( (CPU_SENT - 1) / 100 + 1 ))
			echo "$cfg,$rep,$ERSPAN_CPU_RATE,$CPU_SENT,$m,$CPU_RECV,$CPU_GOT,$CPU_CAP,$CPU_GEN" >>"$CPUCSV"
			log "erspan cpu $cfg rep $rep: sent $CPU_SENT, copied $CPU_RECV, got $CPU_GOT, capture ${CPU_CAP} ms, sender $CPU_GEN ms"
		else
			log "erspan cpu $cfg rep $rep: broke"
		fi
	done
	rep=$((rep + 1))
done

# med CONFIG FIELD: median of a CSV column (1-based) over the reps.
med() {
	awk -F, -v c="$1" -v f="$2" 'NR > 1 && $1 == c { print $f }' "$CPUCSV" |
	    stats | cut -d' ' -f1
}
# per_frame MS FRAMES: microseconds per frame, two decimals.
per_frame() {
	awk -v m="$1" -v n="$2" 'BEGIN {
	    if (m == "na" || n == "na" || n + 0 == 0) print "na"
	    else printf "%.2f\n", m * 1000 / n }'
}
declare -A CAPUS COPIED MATCHING
for cfg in $CPU_CONFIGS; do
	CAPUS[$cfg]=$(per_frame "$(med "$cfg" 8)" "$(med "$cfg" 4)")
	COPIED[$cfg]=$(med "$cfg" 6)
	MATCHING[$cfg]=$(med "$cfg" 5)
done
# goal VALUE LIMIT: "met" if VALUE <= LIMIT.
goal() {
	awk -v v="$1" -v l="$2" 'BEGIN {
	    if (v == "n/a" || v == "") print "n/a"
	    else print (v + 0 <= l + 0) ? "met" : "not met" }'
}

fmt() {
	fmt_bracket "${MAXL[$1]}" "${MAXH[$1]}"
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
	md_head configuration "max lossless ERSPAN frames/s" "ratio to stock+decap"
	for cfg in $CONFIGS; do
		md_row "$cfg" "$(fmt "$cfg")" "$(ratio_b "${MAXL[$cfg]}" "${MAXH[$cfg]}" "${MAXL[stock+decap]}" "${MAXH[stock+decap]}")"
	done
	echo
	md_head phase configuration rate sent matching got "loss %"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $5, $7, $8, $9 }' "$CSV"
	echo
	echo "![ERSPAN](erspan.png)"
	echo
	echo "### CPU per mirrored frame and frames copied to user space"
	echo
	[ -n "$CPU_NA" ] && { echo "n/a: $CPU_NA."; echo; }
	echo "The same traffic at a fixed $ERSPAN_CPU_RATE frames/s for ${ERSPAN_CPU_SECS} s, median of"
	echo "$ERSPAN_CPU_REPS run(s); stock-gre is stock tcpdump \`'proto gre' -w FILE\` (every"
	echo "GRE frame written, nothing decapsulated).  Copied = frames copied to"
	echo "user space by the capture (tcpdump's \"received by filter\", the kernel's"
	echo "count of frames that passed the socket filter; for stock+decap, stock"
	echo "tcpdump's).  CPU = perf stat task-clock (user + system) of the capturing"
	echo "processes (for stock+decap both tcpdumps), per mirrored frame sent."
	echo "Not counted: the kernel's receive path (softirq, socket filter"
	echo "included), which on a veth pair runs in the sender's syscall and is"
	echo "charged to it; the sender's task-clock is in the CSV, next to a run"
	echo "with no capture, but it varies more between identical runs than that"
	echo "path costs, so it is not attributed."
	echo "Goals: copied <= 1.1 x matching, CPU <= 0.3 x stock+decap."
	echo
	md_head configuration matching copied "copied / matching" \
	    "CPU us/frame" "CPU / stock+decap"
	for cfg in $CPU_CONFIGS; do
		md_row "$cfg" "${MATCHING[$cfg]}" "${COPIED[$cfg]}" \
		    "$(ratio "${COPIED[$cfg]}" "${MATCHING[$cfg]}")" \
		    "${CAPUS[$cfg]}" "$(ratio "${CAPUS[$cfg]}" "${CAPUS[stock+decap]}")"
	done
	echo
	c=$(ratio "${COPIED[ours-erspan]}" "${MATCHING[ours-erspan]}")
	u=$(ratio "${CAPUS[ours-erspan]}" "${CAPUS[stock+decap]}")
	echo "ours-erspan: copied x$c of the matching frames (goal <= 1.1: $(goal "$c" 1.1));"
	echo "CPU per mirrored frame x$u of stock+decap (goal <= 0.3: $(goal "$u" 0.3))."
	echo
	echo "Raw data: [erspan.csv](erspan.csv), [erspan-cpu.csv](erspan-cpu.csv)."
	echo
} >"$MD"
{
	printf 'ERSPAN 1%% kept, max lossless f/s|stock+decap %s' "$(fmt stock+decap)"
	for cfg in ours-erspan ours-erspanfilter; do
		printf '; %s %s' "$cfg" "$(ratio_b "${MAXL[$cfg]}" "${MAXH[$cfg]}" "${MAXL[stock+decap]}" "${MAXH[stock+decap]}")"
	done
	echo
	printf 'ERSPAN 1%% kept, --erspan vs stock+decap|copied x%s of matching (goal <= 1.1); CPU/frame x%s (goal <= 0.3)\n' \
	    "$c" "$u"
} >"$HL"
exit 0
