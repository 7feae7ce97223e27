# shellcheck shell=bash disable=SC2034 # variables are for the sourcing script
# bench/lib.sh -- shared by bench/run and the experiment scripts.
#
# An experiment script is run by bench/run with these in the environment
# (bench_init fills in what is missing, so a script also runs alone):
#
#	BENCH_DIR	bench/ in the source tree
#	SLUICE_SRCDIR	the source tree (BENCH_DIR/..)
#	SLUICE_BUILDDIR	the configured build dir (default ../_build)
#	BENCH_MODE	quick | full
#	BENCH_OUT	results directory of this run (CSV, PNG, *.md)
#	BENCH_TOOLS	scratch dir with the tools built by bench_build_tools
#	BENCH_SCRATCH	scratch dir on local disk for captures (emptied)
#	NS_A, NS_B, VETH_A, VETH_B
#			namespaces and veth pair made by bench/run (a
#			live experiment makes its own when they are unset)
#
# Each experiment writes BENCH_OUT/<name>.md (its report section), its
# CSV files, PNG plots, and BENCH_OUT/<name>.headline (lines of the
# headline table), and logs every command it runs to BENCH_OUT/commands.log.
#
# Nothing here judges speed: functions fail only when the bench itself
# cannot work (a tool missing, a namespace that cannot be made).

# bench_staged_dir ROOT NAME: the directory of the shallowest NAME under
# ROOT (a staged install, whatever prefix and libdir it was configured
# with), or nothing.
bench_staged_dir() {
	find "$1" -name "$2" 2>/dev/null | awk '{ print length($0) " " $0 }' |
	    sort -n | head -n 1 | sed 's/^[0-9]* //; s|/[^/]*$||'
}

bench_init() {
	: "${BENCH_DIR:=$(cd "$(dirname "$0")" && pwd)}"
	: "${SLUICE_SRCDIR:=$(cd "$BENCH_DIR/.." && pwd)}"
	: "${SLUICE_BUILDDIR:=$SLUICE_SRCDIR/_build}"
	# shellcheck source=../tests/lib-proc.sh
	. "$SLUICE_SRCDIR/tests/lib-proc.sh"
	: "${BENCH_MODE:=quick}"
	: "${BENCH_OUT:=$BENCH_DIR/results/$(date -u +%Y%m%d-%H%M%S)-$BENCH_MODE}"
	: "${BENCH_TOOLS:=$BENCH_OUT/.tools}"
	# Run alone, a script makes (and at exit removes) its own scratch.
	if [ -z "${BENCH_SCRATCH:-}" ]; then
		BENCH_SCRATCH=/var/tmp/sluice-bench.$$
		BENCH_OWN_SCRATCH=1
		trap 'bench_exit' EXIT
	fi
	: "${CC:=cc}"
	export BENCH_DIR SLUICE_SRCDIR SLUICE_BUILDDIR BENCH_MODE BENCH_OUT \
	    BENCH_TOOLS BENCH_SCRATCH CC
	mkdir -p "$BENCH_OUT" "$BENCH_TOOLS" "$BENCH_SCRATCH" || return 1

	# bench_snapshot (bench/run calls it) sets these to a copy.
	: "${TD_STOCK:=$SLUICE_BUILDDIR/obj/stock-tcpdump/tcpdump}"
	# The staged trees follow the configured --prefix and --libdir:
	# make passes their exact paths; run by hand, look for the library.
	: "${SLUICE_STOCK_LIBDIR:=$(bench_staged_dir "$SLUICE_BUILDDIR/stage-stock" 'libpcap.so')}"
	: "${SLUICE_STAGE_LIBDIR:=$(bench_staged_dir "$SLUICE_BUILDDIR/stage" 'libpcap.so')}"
	: "${SLUICE_STAGE_INCLUDEDIR:=$(bench_staged_dir "$SLUICE_BUILDDIR/stage" 'pcap.h')}"
	: "${LIB_STOCK:=$SLUICE_STOCK_LIBDIR}"
	: "${TD_OURS:=$SLUICE_BUILDDIR/obj/tcpdump/tcpdump}"
	: "${LIB_OURS:=$SLUICE_STAGE_LIBDIR}"
	: "${INC_OURS:=$SLUICE_STAGE_INCLUDEDIR}"
	# The traffic tools make builds once for tests and bench
	# (test-tools), named by the environment make gives.
	: "${SLUICE_GEN:=$SLUICE_BUILDDIR/tools/sluice-gen}"
	: "${SLUICE_SEQCHECK:=$SLUICE_BUILDDIR/tools/sluice-seqcheck}"
	: "${SLUICE_SLOWSINK:=$SLUICE_BUILDDIR/tools/slowsink}"
	GEN=$SLUICE_GEN
	SEQCHECK=$SLUICE_SEQCHECK
	SLOWSINK=$SLUICE_SLOWSINK
	CODECBENCH=$BENCH_TOOLS/codecbench
	PPCAP=$BENCH_TOOLS/ppcap

	# Sending threads of sluice-gen (--threads): each costs a core at
	# full speed, and on 2 cores the capture needs the other one.
	: "${BENCH_GEN_THREADS:=$(( $(nproc) >= 4 ? 2 : 1 ))}"
	export BENCH_GEN_THREADS

	# The capture settings of every experiment, and the slow disk.
	SNAP=65535
	BUFKB=2048
	SLOW_RATE=20M
	SLOW_BYTES=20000000
}

# bench_experiment NAME: bench_init, then the names of experiment NAME's
# outputs: MD (report section), CSV (raw data), HL (headline lines).
bench_experiment() {
	bench_init || return 1
	NAME=$1
	MD=$BENCH_OUT/$NAME.md
	CSV=$BENCH_OUT/$NAME.csv
	HL=$BENCH_OUT/$NAME.headline
}

# bench_exit: what the EXIT trap of a script run alone does.
bench_exit() {
	if [ "${BENCH_OWN_NETNS:-0}" = 1 ]; then
		netns_cleanup
	fi
	if [ "${BENCH_OWN_SCRATCH:-0}" = 1 ]; then
		rm -rf "$BENCH_SCRATCH"
	fi
}

# bench_snapshot: copy both tcpdumps, their libpcaps and our headers
# into BENCH_TOOLS and use the copies, so that a rebuild of the build dir
# during a run (make replaces files in place) cannot change or break what
# is measured half way through.
bench_snapshot() {
	for _w in ours stock; do
		mkdir -p "$BENCH_TOOLS/$_w/lib" || return 1
	done
	cp "$TD_OURS" "$BENCH_TOOLS/ours/tcpdump" &&
	    cp -a "$LIB_OURS"/libpcap.so* "$BENCH_TOOLS/ours/lib/" &&
	    cp -a "$INC_OURS" "$BENCH_TOOLS/ours/include" &&
	    cp "$TD_STOCK" "$BENCH_TOOLS/stock/tcpdump" &&
	    cp -a "$LIB_STOCK"/libpcap.so* "$BENCH_TOOLS/stock/lib/" || return 1
	TD_OURS=$BENCH_TOOLS/ours/tcpdump
	LIB_OURS=$BENCH_TOOLS/ours/lib
	INC_OURS=$BENCH_TOOLS/ours/include
	TD_STOCK=$BENCH_TOOLS/stock/tcpdump
	LIB_STOCK=$BENCH_TOOLS/stock/lib
	export TD_OURS LIB_OURS INC_OURS TD_STOCK LIB_STOCK
}

log() {
	printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2
}

# cmdlog CMD...: record a command line as it is run.
cmdlog() {
	printf '%s\n' "$*" >>"$BENCH_OUT/commands.log"
}

is_root() {
	[ "$(id -u)" = 0 ]
}

have() {
	command -v "$1" >/dev/null 2>&1
}

# peer_version TOOL: TOOL's version line, or "TOOL: not installed".
peer_version() {
	if ! have "$1"; then
		echo "$1: not installed"
		return
	fi
	case $1 in
	nginx)	nginx -v 2>&1 | head -1 ;;
	wrk)	wrk --version 2>&1 | head -1 | sed 's/ Copyright.*//' ;;
	*)	"$1" --version 2>&1 | head -1 | sed 's/^[*]* *//; s/ *[*]*$//' ;;
	esac
}

# bench_build_tools: check that make built the generator, the checker
# (which links our libpcap, so it reads whatever our savefiles are) and
# the slow sink; build codecbench and bench's own helpers.
bench_build_tools() {
	for _t in "$GEN" "$SLOWSINK" "$SEQCHECK"; do
		if [ ! -x "$_t" ]; then
			echo "bench: $_t is missing: run bench through make (make bench)" >&2
			return 1
		fi
	done
	# The user-space ERSPAN decapsulation stage of stock+decap.
	if [ ! -x "$BENCH_TOOLS/erspan-decap" ]; then
		cat >"$BENCH_TOOLS/erspan-decap" <<-EOF || return 1
		#!/bin/sh
		# standard input: a capture of ERSPAN in GRE; standard output:
		# the mirrored frames that match \$ERSPAN_FILTER
		LD_LIBRARY_PATH="$LIB_OURS" exec "$TD_OURS" -r - --erspan -w - "\$ERSPAN_FILTER"
		EOF
		chmod +x "$BENCH_TOOLS/erspan-decap" || return 1
	fi
	# The per-packet compressing capture and codecbench link our
	# libpcap, so they get its sanitizers, if any, through CFLAGS (the
	# tests' sanitizer build runs bench with them).
	# shellcheck disable=SC2086
	if [ ! -x "$PPCAP" ]; then
		$CC ${CFLAGS:-} -O2 -Wall -Wextra -I"$INC_OURS" -o "$PPCAP" \
		    "$BENCH_DIR/ppcap.c" -L"$LIB_OURS" -lpcap -lz -llzo2 ||
		    return 1
	fi
	# shellcheck disable=SC2086
	if [ ! -x "$CODECBENCH" ]; then
		$CC ${CFLAGS:-} -O2 -Wall -Wextra -I"$INC_OURS" -o "$CODECBENCH" \
		    "$BENCH_DIR/codecbench.c" -L"$LIB_OURS" -lpcap -lz -llzo2 ||
		    return 1
	fi
}

# td_run WHICH ARGS...: run stock or our tcpdump with its own libpcap.
td_run() {
	case $1 in
	stock)	shift; LD_LIBRARY_PATH=$LIB_STOCK "$TD_STOCK" "$@" ;;
	ours)	shift; LD_LIBRARY_PATH=$LIB_OURS "$TD_OURS" "$@" ;;
	*)	return 2 ;;
	esac
}

# td_has WHICH OPTION: true if that tcpdump's --help lists OPTION.
td_has() {
	td_run "$1" --help 2>&1 | grep -q -- "$2"
}

# seqcount FILE [DECOMP [FILTER]]: distinct sequence numbers in a
# capture; DECOMP (zstd, lz4, ppcap) decompresses it first; FILTER keeps only
# the frames our tcpdump's FILTER matches (read back offline).  Prints -1
# if unreadable.
seqcount() {
	if [ -n "${3:-}" ]; then
		td_run ours -r "$1" -w - "$3" 2>/dev/null |
		    LD_LIBRARY_PATH=$LIB_OURS "$SEQCHECK" - \
		    >"$BENCH_SCRATCH/chk.out" 2>/dev/null
		_d=$(sed -n 's/^distinct: //p' "$BENCH_SCRATCH/chk.out")
		echo "${_d:--1}"
		return
	fi
	case ${2:-} in
	zstd)	zstd -dcq "$1" 2>/dev/null | LD_LIBRARY_PATH=$LIB_OURS \
		    "$SEQCHECK" - >"$BENCH_SCRATCH/chk.out" 2>/dev/null ;;
	lz4)	lz4 -dcq "$1" 2>/dev/null | LD_LIBRARY_PATH=$LIB_OURS \
		    "$SEQCHECK" - >"$BENCH_SCRATCH/chk.out" 2>/dev/null ;;
	ppcap)	LD_LIBRARY_PATH=$LIB_OURS "$PPCAP" -d "$1" 2>/dev/null | LD_LIBRARY_PATH=$LIB_OURS \
		    "$SEQCHECK" - >"$BENCH_SCRATCH/chk.out" 2>/dev/null ;;
	*)	LD_LIBRARY_PATH=$LIB_OURS "$SEQCHECK" "$1" \
		    >"$BENCH_SCRATCH/chk.out" 2>/dev/null ;;
	esac
	_d=$(sed -n 's/^distinct: //p' "$BENCH_SCRATCH/chk.out")
	echo "${_d:--1}"
}

# bench_drop_http_real NAME: takes http-real out of TYPES where the real
# HTTP trace cannot be recorded here (bench_http_trace), logging why for
# experiment NAME and keeping the reason in NO_TRACE for its report.
bench_drop_http_real() {
	case " $TYPES " in
	*" http-real "*)
		if ! bench_http_trace; then
			log "$1: no http-real: $HTTP_TRACE_NA"
			TYPES=$(echo "$TYPES" | sed 's/ http-real//')
			NO_TRACE=$HTTP_TRACE_NA
		fi ;;
	esac
}

# bench_gen_savefile TYPE MB FILE: about MB megabytes of pcap of frame
# type TYPE (sluice-gen --type, or http-real: the real HTTP trace
# replayed, bench_http_trace) written to FILE, with the seed every
# offline experiment uses.  Returns 1, having logged why, on failure.
bench_gen_savefile() {
	local t=$1 mb=$2 file=$3 rb src n
	case $t in
	fixed64|random64) rb=76 ;;
	fixed1518|random1518) rb=1530 ;;
	http-real) rb=$(awk -v s="$(stat -c %s "$HTTP_TRACE")" \
	    -v n="$(td_run stock -nr "$HTTP_TRACE" 2>/dev/null | wc -l)" \
	    'BEGIN { printf "%d", (s - 24) / n }') ;;
	*) rb=440 ;;
	esac
	src=(--type "$t")
	[ "$t" = http-real ] && src=(--replay "$HTTP_TRACE")
	n=$((mb * 1000000 / rb))
	cmdlog "$GEN ${src[*]} --count $n --seed 9 --out $file"
	"$GEN" "${src[@]}" --count "$n" --seed 9 --out "$file" 2>/dev/null || {
		log "sluice-gen --out failed for $t"
		return 1
	}
}

# stats: median, min and max of the numbers on stdin ("na" ignored);
# prints "MEDIAN MIN MAX N" (or "na na na 0").
stats() {
	grep -v -e '^na$' -e '^$' | sort -g | awk '
	    { v[NR] = $1 }
	    END {
		if (NR == 0) { print "na na na 0"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%g %g %g %d\n", m, v[1], v[NR], NR
	    }'
}

# fmt_spread MEDIAN MIN MAX: "m (min-max)", or "n/a".
fmt_spread() {
	if [ "$1" = na ]; then
		echo "n/a"
	elif [ "$2" = "$3" ]; then
		echo "$1"
	else
		echo "$1 ($2-$3)"
	fi
}

# ratio A B: A/B with two decimals, n/a when either is missing or B is 0.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
	    if (a == "na" || b == "na" || a == "" || b == "" || b + 0 == 0)
		print "n/a"
	    else
		printf "%.2f\n", a / b }'
}

# ---------------------------------------------------------------------
# What the experiment scripts share around capture_run: the n/a section,
# the live setup, the maximum lossless load search, table rows and the
# plot of loss against rate.  (loss.sh, menski.sh, erspan.sh, writer.sh
# and sustained.sh use them.)

# bench_na_report NAME TITLE LABEL REASON: the report section and the
# headline line of experiment NAME when it cannot run here.
bench_na_report() {
	printf '## %s\n\nn/a: %s.\n\n' "$2" "$4" >"$BENCH_OUT/$1.md"
	printf '%s|n/a (%s)\n' "$3" "$4" >"$BENCH_OUT/$1.headline"
}

# live_na: why a live experiment cannot run here (nothing if it can).
live_na() {
	is_root || echo "needs root (network namespaces)"
}

# bench_live_setup: the tools and the namespaces of a live experiment.
bench_live_setup() {
	bench_build_tools && bench_netns
}

# is_lossless LOSS: true when LOSS (percent, from capture_run) is 0;
# false for a broken run ("na", empty).
is_lossless() {
	awk -v l="$1" 'BEGIN { exit !(l != "na" && l != "" && l + 0 == 0) }'
}

# ML_REPS: how often maxload_search measures each rate (default 1).
# The rule with repetitions: a rate is lossless when the median of its
# losses is 0, that is when it was lossless in a strict majority of the
# runs that did not break (with 2 runs, both; 1 of 2 is lossy).

# ml_point FN RATE PHASE ARGS...: FN measured ML_REPS times at RATE;
# sets MP_MED, MP_MIN, MP_MAX (loss %, "na" when every run broke),
# MP_N (runs that did not break) and MP_LOSSLESS (1 or 0, the median
# rule above; 0 when every run broke).
ml_point() {
	_mp_fn=$1
	_mp_r=$2
	_mp_ph=$3
	shift 3
	_mp_all=
	_mp_k=0
	while [ "$_mp_k" -lt "${ML_REPS:-1}" ]; do
		_mp_all="$_mp_all$("$_mp_fn" "$_mp_r" "$_mp_ph" "$@")
"
		_mp_k=$((_mp_k + 1))
	done
	# shellcheck disable=SC2046 # "MEDIAN MIN MAX N"
	set -- $(printf '%s' "$_mp_all" | stats)
	MP_MED=$1 MP_MIN=$2 MP_MAX=$3 MP_N=$4
	MP_LOSSLESS=0
	if [ "$MP_N" -gt 0 ] && is_lossless "$MP_MED"; then
		MP_LOSSLESS=1
	fi
}

# maxload_search FN "RATES" STEPS [ARGS...]: the maximum lossless load.
# FN RATE PHASE ARGS... measures once at RATE frames/s and prints the
# loss in percent ("na" when the run broke); PHASE is sweep or bisect.
# Each rate is measured ML_REPS times (ml_point: the median decides).
# First a sweep over RATES, then up to STEPS steps (rates rounded to
# 1000 frames/s): while no rate was lossless, a quarter of the lowest
# lossy rate (so that a configuration lossy at every rate of the sweep
# still gets a bracket), then geometric bisection between the highest
# lossless and the lowest lossy rate; a rate whose runs all broke counts
# as lossy.  Sets ML_LO (the highest lossless rate, 0 if none), ML_HI
# (the lowest lossy one, "na" if lossless at every rate) and ML_VALID
# (sweep rates with at least one run that did not break).  With
# ML_SWEEP_STOP=1 the sweep, which must then go up, stops at its first
# lossy rate (the rates above it would be lossy too).
maxload_search() {
	_ms_fn=$1
	_ms_rates=$2
	_ms_steps=$3
	shift 3
	ML_LO=0
	ML_VALID=0
	_ms_hi=0
	for _ms_r in $_ms_rates; do
		ml_point "$_ms_fn" "$_ms_r" sweep "$@"
		[ "$MP_N" = 0 ] && continue
		ML_VALID=$((ML_VALID + 1))
		if [ "$MP_LOSSLESS" = 1 ]; then
			[ "$_ms_r" -gt "$ML_LO" ] && ML_LO=$_ms_r
		elif [ "$_ms_hi" = 0 ] || [ "$_ms_r" -lt "$_ms_hi" ]; then
			_ms_hi=$_ms_r
			[ "${ML_SWEEP_STOP:-0}" = 1 ] && break
		fi
	done
	if [ "$_ms_hi" != 0 ] && [ "$ML_LO" -lt "$_ms_hi" ]; then
		_ms_b=0
		while [ "$_ms_b" -lt "$_ms_steps" ]; do
			if [ "$ML_LO" = 0 ]; then
				# a quarter, rounded down to 1000 frames/s
				# shellcheck disable=SC2017
				_ms_m=$((_ms_hi / 4000 * 1000))
				[ "$_ms_m" -gt 0 ] || break
			else
				_ms_m=$(awk -v a="$ML_LO" -v c="$_ms_hi" \
				    'BEGIN { printf "%d", int(sqrt(a * c) / 1000) * 1000 }')
				if [ "$_ms_m" -le "$ML_LO" ] || [ "$_ms_m" -ge "$_ms_hi" ]; then
					break
				fi
			fi
			ml_point "$_ms_fn" "$_ms_m" bisect "$@"
			if [ "$MP_LOSSLESS" = 1 ]; then
				ML_LO=$_ms_m
			else
				_ms_hi=$_ms_m
			fi
			_ms_b=$((_ms_b + 1))
		done
	fi
	ML_HI=$_ms_hi
	[ "$ML_HI" = 0 ] && ML_HI=na
	return 0
}

# fmt_bracket LO HI: a maximum lossless load for a table: "A (< B)",
# ">= A" (lossless at every rate tried), "< B" (lossy at every rate), or
# "n/a" when there is none.
fmt_bracket() {
	if [ -z "$1" ]; then
		echo "n/a"
	elif [ "$2" = na ]; then
		echo ">= $1"
	elif [ "$1" = 0 ]; then
		echo "< $2"
	else
		echo "$1 (< $2)"
	fi
}

# md_head COLUMN...: the head of a Markdown table; md_row CELL...: a row.
md_head() {
	md_row "$@"
	printf -- '|'
	printf -- '---|%.0s' "$@"
	echo
}
md_row() {
	printf '|'
	for _mr in "$@"; do
		printf ' %s |' "$_mr"
	done
	echo
}

# loss_points CSV OUT [PPS_MIN]: the median loss and its spread at each
# point of a run CSV with the columns of loss.sh and sustained.sh (1
# phase, 2 type, 3 sink, 4 config, 5 rate, 8 pps sent, 10 loss %): OUT
# gets "type,sink,config,rate,runs,loss_median,loss_min,loss_max", by
# rate within each configuration.  Left out: broken runs, loss.sh's
# runs of phase "sustained" (a table of their own) and, with PPS_MIN,
# runs in which the sender kept to less than PPS_MIN of the rate
# (they measure the sender, not the capture).
loss_points() {
	awk -F, -v pmin="${3:-0}" 'NR > 1 && $1 != "sustained" &&
	    $10 != "na" && $10 != "" && (pmin == 0 || $8 + 0 >= pmin * $5) {
		k = $2 "," $3 "," $4 "," $5; n[k]++; v[k, n[k]] = $10 + 0 }
	    END {
		for (k in n) {
			m = n[k]
			for (i = 2; i <= m; i++)	# insertion sort, m is small
				for (j = i; j > 1 && v[k, j - 1] > v[k, j]; j--) {
					t = v[k, j]; v[k, j] = v[k, j - 1]; v[k, j - 1] = t }
			med = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
			printf "%s,%d,%.3f,%.3f,%.3f\n", k, m, med, v[k, 1], v[k, m]
		} }' "$1" | sort -t, -k1,1 -k2,2 -k3,3 -k4,4n >"$2.tmp"
	{
		echo "type,sink,config,rate,runs,loss_median,loss_min,loss_max"
		cat "$2.tmp"
	} >"$2"
	rm -f "$2.tmp"
}

# loss_plot NAME TITLE POINTS SINK "TYPES" "CONFIGS": BENCH_OUT/NAME.png,
# the median loss % against the offered rate (log scale) at the points
# of POINTS (loss_points) into SINK, min-max as error bars: a panel per
# type of TYPES, a line per configuration of CONFIGS with points there.
# The gnuplot script is NAME.gp, its errors NAME.gp.err; a plot that
# fails is logged and the run goes on (the tables have the numbers).
loss_plot() {
	_lp_n=$(echo "$5" | wc -w)
	[ "$_lp_n" -gt 0 ] || return 0
	_lp_cols=$(( _lp_n < 3 ? _lp_n : 3 ))
	_lp_rows=$(( (_lp_n + _lp_cols - 1) / _lp_cols ))
	_lp_gp=$BENCH_OUT/$1.gp
	{
		echo "set terminal pngcairo size $((_lp_cols * 520)),$((_lp_rows * 380)) font ',9'"
		echo "set output '$BENCH_OUT/$1.png'"
		echo "set datafile separator ','"
		echo "set multiplot layout $_lp_rows,$_lp_cols title '$2'"
		echo "set logscale x; set xlabel 'frames/s offered'; set ylabel 'loss %'; set yrange [-2:100]; set key top left font ',7'"
		for _lp_t in $5; do
			_lp_plots=
			for _lp_c in $6; do
				_lp_f=$BENCH_OUT/.$1-$_lp_t-$_lp_c.dat
				awk -F, -v k="$_lp_t,$4,$_lp_c" '$1 "," $2 "," $3 == k { print $4 "," $6 "," $7 "," $8 }' \
				    "$3" >"$_lp_f"
				if [ ! -s "$_lp_f" ]; then
					rm -f "$_lp_f"
					continue
				fi
				_lp_plots="$_lp_plots${_lp_plots:+, }'$_lp_f' using 1:2:3:4 with yerrorlines title '$_lp_c'"
			done
			echo "set title '$_lp_t'"
			if [ -n "$_lp_plots" ]; then
				echo "plot $_lp_plots"
			else
				echo "plot 0 title 'no data'"
			fi
		done
		echo "unset multiplot"
	} >"$_lp_gp"
	gnuplot "$_lp_gp" 2>"$BENCH_OUT/$1.gp.err" ||
	    log "gnuplot failed for $1 (see $1.gp.err)"
}

# ---------------------------------------------------------------------
# The real HTTP trace: HTTP captured from a local nginx under wrk.
#
# bench_http_trace: set HTTP_TRACE to a pcap file of real HTTP traffic
# and return 0, or set HTTP_TRACE_NA (why not) and return 1.  The trace
# is made once and kept in HTTP_TRACE_CACHE (default
# bench/results/.cache/http-real.pcap; bench/results is never committed):
# in a network namespace of its own, with only its loopback, nginx serves
# a small site from a config in a scratch dir (no system service, no
# other interface), wrk fetches its pages with HTTP_TRACE_CONNS
# connections for at most HTTP_TRACE_SECS seconds, and stock tcpdump on
# the loopback keeps the first HTTP_TRACE_FRAMES frames.  The loopback
# gets an Ethernet MTU and no segmentation offload (gso_max_size), so
# the frames are the sizes an Ethernet link carries.  Needs root, nginx
# and wrk.
bench_http_trace() {
	: "${HTTP_TRACE_CACHE:=$BENCH_DIR/results/.cache/http-real.pcap}"
	: "${HTTP_TRACE_FRAMES:=20000}"
	: "${HTTP_TRACE_SECS:=5}"
	: "${HTTP_TRACE_CONNS:=4}"
	HTTP_TRACE=$HTTP_TRACE_CACHE
	HTTP_TRACE_NA=
	if [ -s "$HTTP_TRACE" ] &&
	    [ "$(td_run stock -nr "$HTTP_TRACE" 2>/dev/null | wc -l)" -gt 0 ]; then
		return 0
	fi
	if ! is_root; then
		HTTP_TRACE_NA="needs root once to record it"
	elif ! have nginx || ! have wrk; then
		HTTP_TRACE_NA="nginx or wrk not installed (build-aux/sluice-deps)"
	fi
	if [ -z "$HTTP_TRACE_NA" ]; then
		# A run of its own next to this one may record too.
		mkdir -p "$(dirname "$HTTP_TRACE")" &&
		    ( _http_trace_record "$HTTP_TRACE.$$" ) &&
		    mv "$HTTP_TRACE.$$" "$HTTP_TRACE" ||
		    HTTP_TRACE_NA="recording it failed (see the experiment's log)"
		rm -f "$HTTP_TRACE.$$"
	fi
	if [ -n "$HTTP_TRACE_NA" ]; then
		HTTP_TRACE=
		return 1
	fi
	log "HTTP trace: $(td_run stock -nr "$HTTP_TRACE" 2>/dev/null | wc -l) frames in $HTTP_TRACE"
	return 0
}

# _http_trace_record OUT: the recording itself, run in a subshell so its
# traps remove the namespace and stop nginx whatever happens.
_http_trace_record() {
	_ht_ns=sluice-h-$$
	_ht_dir=$BENCH_SCRATCH/http
	_ht_ng=
	_ht_td=
	# shellcheck disable=SC2317 # called from the traps
	_ht_clean() {
		[ -n "$_ht_td" ] && proc_stop "$_ht_td" INT 30
		[ -n "$_ht_ng" ] && proc_stop "$_ht_ng" TERM 30
		ip netns del "$_ht_ns" 2>/dev/null
		rm -rf "$_ht_dir"
	}
	trap '_ht_clean' EXIT
	trap '_ht_clean; trap - EXIT; exit 130' INT
	trap '_ht_clean; trap - EXIT; exit 143' TERM
	mkdir -p "$_ht_dir/www" "$_ht_dir/tmp" || return 1
	# The site: nginx's own welcome page, a text page, a compressed
	# file, and a missing page (404).
	cp /usr/share/common-licenses/GPL-3 "$_ht_dir/www/gpl.txt" &&
	    gzip -9 -n -c "$_ht_dir/www/gpl.txt" >"$_ht_dir/www/gpl.txt.gz" ||
	    return 1
	if [ -r /usr/share/nginx/html/index.html ]; then
		cp /usr/share/nginx/html/index.html "$_ht_dir/www/index.html"
	else
		printf '<!DOCTYPE html>\n<html><head><title>sluice</title></head><body><p>bench</p></body></html>\n' \
		    >"$_ht_dir/www/index.html"
	fi
	cat >"$_ht_dir/nginx.conf" <<-EOF || return 1
	daemon off;
	master_process off;
	worker_processes 1;
	pid $_ht_dir/nginx.pid;
	error_log $_ht_dir/error.log crit;
	events { worker_connections 64; }
	http {
		access_log off;
		log_not_found off;
		client_body_temp_path $_ht_dir/tmp/body;
		proxy_temp_path $_ht_dir/tmp/proxy;
		fastcgi_temp_path $_ht_dir/tmp/fastcgi;
		uwsgi_temp_path $_ht_dir/tmp/uwsgi;
		scgi_temp_path $_ht_dir/tmp/scgi;
		types { text/html html; text/plain txt; application/gzip gz; }
		server { listen 127.0.0.1:8080; root $_ht_dir/www; }
	}
	EOF
	cat >"$_ht_dir/paths.lua" <<-'EOF' || return 1
	local paths = { "/", "/index.html", "/gpl.txt", "/gpl.txt.gz", "/missing.html" }
	local i = 0
	request = function()
		i = i % #paths + 1
		return wrk.format("GET", paths[i])
	end
	EOF
	ip netns add "$_ht_ns" &&
	    ip -n "$_ht_ns" link set lo mtu 1500 gso_max_size 1500 up || return 1
	cmdlog "ip netns exec $_ht_ns nginx -e ERRLOG -p DIR -c DIR/nginx.conf &"
	ip netns exec "$_ht_ns" nginx -e "$_ht_dir/error.log" -p "$_ht_dir" \
	    -c "$_ht_dir/nginx.conf" 2>"$_ht_dir/nginx.err" &
	_ht_ng=$!
	# Listening: 127.0.0.1:8080 (7F000001:1F90) in state 0A.
	_i=0
	until ip netns exec "$_ht_ns" grep -q ' 0100007F:1F90 [0-9A-F:]* 0A ' /proc/net/tcp; do
		_i=$((_i + 1))
		if [ "$_i" -gt 50 ] || ! proc_alive "$_ht_ng"; then
			log "nginx did not start: $(head -3 "$_ht_dir/nginx.err" "$_ht_dir/error.log" 2>/dev/null)"
			return 1
		fi
		sleep 0.1
	done
	cmdlog "ip netns exec $_ht_ns tcpdump -n -i lo -s 0 -c $HTTP_TRACE_FRAMES -w OUT tcp port 8080 &"
	ip netns exec "$_ht_ns" env "LD_LIBRARY_PATH=$LIB_STOCK" "$TD_STOCK" \
	    -n -i lo -s 0 -c "$HTTP_TRACE_FRAMES" -w "$1" 'tcp port 8080' \
	    2>"$_ht_dir/td.err" &
	_ht_td=$!
	capture_wait_ready "$_ht_td" 1 "$_ht_dir/td.err" || {
		log "tcpdump on the loopback did not start: $(head -2 "$_ht_dir/td.err")"
		return 1
	}
	cmdlog "ip netns exec $_ht_ns wrk -t 1 -c $HTTP_TRACE_CONNS -d ${HTTP_TRACE_SECS}s -s paths.lua http://127.0.0.1:8080/"
	ip netns exec "$_ht_ns" wrk -t 1 -c "$HTTP_TRACE_CONNS" \
	    -d "${HTTP_TRACE_SECS}s" -s "$_ht_dir/paths.lua" \
	    http://127.0.0.1:8080/ >"$_ht_dir/wrk.out" 2>&1 &
	_ht_wrk=$!
	# tcpdump ends by itself after -c frames: then wrk has done its job.
	_i=0
	while [ "$_i" -lt $((HTTP_TRACE_SECS * 10 + 50)) ] &&
	    proc_alive "$_ht_wrk" && proc_alive "$_ht_td"; do
		sleep 0.1
		_i=$((_i + 1))
	done
	proc_stop "$_ht_wrk" INT 50
	log "wrk: $(grep -E 'requests in' "$_ht_dir/wrk.out" | tr -s ' ')"
	# If wrk made fewer frames than -c, that is the trace.
	proc_stop "$_ht_td" INT 30
	_ht_td=
	if ! grep -q 'requests in' "$_ht_dir/wrk.out"; then
		log "wrk failed: $(tail -3 "$_ht_dir/wrk.out")"
		return 1
	fi
	[ -s "$1" ]
}

# ---------------------------------------------------------------------
# Namespaces.  bench/run makes one pair for the whole run; a script run
# alone makes its own.  tests/live/netns.sh installs the cleanup traps.

bench_netns() {
	if [ -n "${NS_A:-}" ] && [ -n "${NS_B:-}" ] &&
	    ip netns list 2>/dev/null | grep -q "^$NS_B"; then
		BENCH_OWN_NETNS=0
		return 0
	fi
	# shellcheck source=../tests/live/netns.sh
	. "$SLUICE_SRCDIR/tests/live/netns.sh"
	netns_setup || return 1
	BENCH_OWN_NETNS=1
	if [ "${BENCH_OWN_SCRATCH:-0}" = 1 ]; then
		# netns_setup replaced the EXIT trap; remove the scratch too.
		trap 'bench_exit' EXIT
	fi
	export NS_A NS_B VETH_A VETH_B
}

# rx_packets: frames the capture side of the veth pair has received.
rx_packets() {
	ip netns exec "$NS_B" cat "/sys/class/net/$VETH_B/statistics/rx_packets"
}

# The process helpers (proc_alive, proc_wait_exit, proc_stop) are the
# tests' (tests/lib-proc.sh).

# packet_ring_mapped PID: true once PID has mapped the ring of a packet
# socket bound to VETH_B (its /proc/PID/maps shows "socket:[INODE]"): the
# socket is bound and its ring is set up, so frames are not missed.
packet_ring_mapped() {
	_pb_if=$(ip netns exec "$NS_B" cat "/sys/class/net/$VETH_B/ifindex" 2>/dev/null)
	[ -n "$_pb_if" ] || return 1
	# shellcheck disable=SC2016 # an awk program
	for _pr_ino in $(ip netns exec "$NS_B" awk -v i="$_pb_if" \
	    'NR > 1 && $5 == i { print $9 }' /proc/net/packet); do
		grep -q "socket:\[$_pr_ino\]" "/proc/$1/maps" 2>/dev/null &&
		    return 0
	done
	return 1
}

# in_poll PID: true while PID sleeps in poll() or select() (its wchan):
# a capture loop waiting for frames.
in_poll() {
	_ip_w=
	{ read -r _ip_w <"/proc/$1/wchan"; } 2>/dev/null
	case $_ip_w in
	*poll*|*select*)	return 0 ;;
	esac
	return 1
}

# capture_wait_ready PID IS_TCPDUMP ERRFILE: wait (at most 10 s) until
# the capture PID can see frames, polling every PROC_POLL s.  tcpdump (and
# ppcap) say "listening on" once the socket is bound and the ring set up;
# dumpcap and netsniff-ng (which says nothing at all when writing to a
# pipe) are ready once they have mapped the ring of a packet socket
# bound to VETH_B and wait for frames in poll() or select() (netsniff-ng
# maps its ring about 0.1 s before it reads it, and lost the first
# frames when sent to then).  Returns 1 if PID died or never got ready.
capture_wait_ready() {
	_cw_i=0
	while [ "$_cw_i" -lt $((100 * PROC_POLLS_PER_TENTH)) ]; do
		proc_alive "$1" || return 1
		if [ "$2" = 1 ]; then
			grep -q 'listening on' "$3" 2>/dev/null && return 0
		elif in_poll "$1" && packet_ring_mapped "$1"; then
			return 0
		fi
		sleep "$PROC_POLL"
		_cw_i=$((_cw_i + 1))
	done
	return 1
}

# writer_tids PID: the thread ids of PID's writer thread: the thread
# named "pcap-writer", else (before that name exists) every thread but
# the main one.
writer_tids() {
	_wt_named=
	_wt_other=
	for _wt_t in /proc/"$1"/task/*; do
		_wt_id=${_wt_t##*/}
		[ "$_wt_id" = "$1" ] && continue
		_wt_c=
		{ read -r _wt_c <"$_wt_t/comm"; } 2>/dev/null
		if [ "$_wt_c" = pcap-writer ]; then
			_wt_named="$_wt_named $_wt_id"
		else
			_wt_other="$_wt_other $_wt_id"
		fi
	done
	# shellcheck disable=SC2086 # a list; the leading space goes
	echo ${_wt_named:-$_wt_other}
}

# set_writer_nice PID NICE: give PID's writer thread the nice value
# NICE, waiting (at most 2 s) for the thread to exist.  Sets CR_WNICE to
# the nice values found afterwards ("none" if there is no such thread).
set_writer_nice() {
	_sn_i=0
	_sn_t=$(writer_tids "$1")
	while [ -z "$_sn_t" ] && [ "$_sn_i" -lt $((20 * PROC_POLLS_PER_TENTH)) ]; do
		sleep "$PROC_POLL"
		_sn_i=$((_sn_i + 1))
		_sn_t=$(writer_tids "$1")
	done
	CR_WNICE=none
	[ -n "$_sn_t" ] || return 1
	CR_WNICE=
	for _sn_id in $_sn_t; do
		renice -n "$2" -p "$_sn_id" >/dev/null 2>&1
		# field 19 of stat, the 17th after "PID (COMM) "
		_sn_st=
		{ read -r _sn_st <"/proc/$1/task/$_sn_id/stat"; } 2>/dev/null
		read -r -a _sn_f <<<"${_sn_st##*) }"
		CR_WNICE="$CR_WNICE${CR_WNICE:+/}${_sn_f[16]:-?}"
	done
}

# wchar PID: bytes PID has written so far (files and pipes alike).
wchar() {
	sed -n 's/^wchar: //p' "/proc/$1/io" 2>/dev/null
}

# wchar_look PID: one look at PID's write count, then 0.1 s of sleep;
# _same counts the looks in a row that found it where _last left it.
# Fails once the process is gone.
wchar_look() {
	local w
	w=$(wchar "$1")
	[ -n "$w" ] || return 1
	if [ "$w" = "$_last" ]; then
		_same=$((_same + 1))
	else
		_same=0
	fi
	_last=$w
	sleep 0.1
}

# ---------------------------------------------------------------------
# One capture run.
#
# capture_run CONFIG SINK TYPE RATE SECONDS [EXTRA-CAPTURE-ARGS...]
#
# CONFIG is one of the configurations of config_list; SINK is "file"
# (a file on local disk) or "slow" (a pipe into slowsink at SLOW_RATE,
# copied to a file so it can be counted).  Sends RATE*SECONDS frames of
# TYPE at RATE frames/s, waits until the capture has written what it had,
# stops it with SIGINT and counts the frames in the result.  Sets
#	CR_SENT CR_PPS CR_GOT CR_LOSS (percent) CR_TDCAP CR_TDDROP
# and returns 0, or returns 1 when the run itself broke (CR_* = na).
# A configuration that cannot run here returns 2 and sets CR_NA (why).
#
# With CR_BG="TYPE RATE" a second sluice-gen sends TYPE frames at RATE
# for the same time alongside (sequence numbers from 100000000), and with
# CR_COUNT="FILTER" only the frames FILTER matches are counted: loss is
# then the loss of the main stream.  CR_FRAMES=N sends N frames instead
# of RATE*SECONDS; CR_CPUS and CR_GEN_CPUS pin the capture (with the
# programs it pipes into) and the sender to CPU lists (taskset -c).
# After a run of our tcpdump with an adaptive writer, CR_LEVELS holds
# the levels it wrote blocks at, as tcpdump printed them.
#
# CR_THREADS=1 (tcpdump only) reads every thread's CPU time twice, as
# "TID COMM NS;..." (thread_cpu): CR_THREADCPU_READY once the capture
# says it is listening, CR_THREADCPU once it has written what it holds;
# tcpdump is not asked for its figures until then, and CR_COUNTED is 1
# if it had counted every frame it received by then, 0 if not, na if it
# did not say.

# gen_ceiling TYPE [RUNS]: the highest rate sluice-gen offers on the
# veth pair, unpaced, no capture attached, best of RUNS (2) one-second
# runs; prints "PPS CPU_US_PER_FRAME" (user + sys of the sender, which
# also pays the veth receive path), or "na na".
gen_ceiling() {
	_gc_best=0
	_gc_cpu=na
	_gc_k=0
	while [ "$_gc_k" -lt "${2:-2}" ]; do
		cmdlog "ip netns exec $NS_A $GEN --type $1 --duration 1 --threads $BENCH_GEN_THREADS --iface $VETH_A"
		_gc_t=$( { TIMEFORMAT='%U %S'; time ip netns exec "$NS_A" "$GEN" \
		    --type "$1" --duration 1 --threads "$BENCH_GEN_THREADS" \
		    --iface "$VETH_A" \
		    2>"$BENCH_SCRATCH/ceil.err"; } 2>&1)
		_gc_n=$(sed -n 's/.*: sent \([0-9]*\) frames.*/\1/p' "$BENCH_SCRATCH/ceil.err")
		_gc_p=$(sed -n 's/.*s: \([0-9]*\) pps.*/\1/p' "$BENCH_SCRATCH/ceil.err")
		if [ -n "$_gc_p" ] && [ "$_gc_p" -gt "$_gc_best" ]; then
			_gc_best=$_gc_p
			_gc_cpu=$(echo "$_gc_t" | awk -v n="$_gc_n" \
			    'NF == 2 && n > 0 { printf "%.2f", ($1 + $2) * 1e6 / n }')
		fi
		_gc_k=$((_gc_k + 1))
	done
	if [ "$_gc_best" = 0 ]; then
		echo "na na"
	else
		echo "$_gc_best ${_gc_cpu:-na}"
	fi
}

# gen_frames TYPE: the sluice-gen options that send frames of TYPE, into
# the array GENF: a --type, or http-real, the real HTTP trace replayed
# (made by bench_http_trace if need be; returns 1 when there is none).
gen_frames() {
	if [ "$1" != http-real ]; then
		GENF=(--type "$1")
		return 0
	fi
	if [ -z "${HTTP_TRACE:-}" ] && ! bench_http_trace; then
		return 1
	fi
	GENF=(--replay "$HTTP_TRACE")
}

# config_list: every capture configuration of the loss experiment.
#	stock		stock tcpdump -w
#	ours		our tcpdump -w (block-buffered, no compression)
#	ours+w		ours with the writer thread (--writer-ring=128m)
#	ours-CODEC	ours --compress=CODEC (block compression)
#	ours-CODEC+w	the same on the writer thread (--writer-ring=128m)
#	stock+PEER	stock tcpdump -w - piped into zstd -1, lz4 -1, mbuffer
#	stock+zstd-adapt
#			the same piped into zstd --adapt: zstd's own
#			adaptive level, which follows how fast its output
#			drains, what a user after adaptive compression picks
#	perpacket-zlib, perpacket-lzo
#			bench/ppcap.c: each packet compressed on its own
#			(zlib -1, LZO1X-1), then a buffered write (Shimizu)
#	dumpcap, netsniff-ng
config_list() {
	echo "stock ours ours+w ours-lz4 ours-zstd ours-zstd+w ours-gzip ours-lzo perpacket-zlib perpacket-lzo stock+zstd stock+zstd-adapt stock+lz4 stock+mbuffer dumpcap netsniff-ng"
}

# is_peer CONFIG: true for the tools a user would try instead of ours.
is_peer() {
	case $1 in
	stock+*|dumpcap|netsniff-ng)	return 0 ;;
	esac
	return 1
}

# is_tcpdump_like CONFIG: true when CONFIG's capture program says
# "listening on" and answers SIGUSR1 with its counts, as tcpdump does.
is_tcpdump_like() {
	case $1 in
	stock|stock+*|ours|ours+*|ours-*|ours=*|perpacket-*)	return 0 ;;
	esac
	return 1
}

# config_na CONFIG: prints why CONFIG cannot run here (nothing if it can).
config_na() {
	case $1 in
	stock)	[ -x "$TD_STOCK" ] || echo "stock tcpdump not built" ;;
	ours)	[ -x "$TD_OURS" ] || echo "our tcpdump not built" ;;
	ours=*)	if [ ! -x "$TD_OURS" ]; then
			echo "our tcpdump not built"
		else
			for _cn_o in $(echo "${1#ours=}" | tr ',' ' '); do
				td_has ours "${_cn_o%%=*}" ||
				    { echo "tcpdump has no ${_cn_o%%=*} yet"; break; }
			done
		fi ;;
	ours-w:*|ours+w|ours-*+w)
		if [ ! -x "$TD_OURS" ]; then
			echo "our tcpdump not built"
		elif ! td_has ours --writer-ring; then
			echo "tcpdump has no --writer-ring yet"
		elif [ "$1" != ours+w ] && [ "${1#ours-w:}" = "$1" ] &&
		    ! td_has ours --compress; then
			echo "tcpdump has no --compress yet"
		fi ;;
	perpacket-zlib|perpacket-lzo)
		[ -x "$PPCAP" ] || echo "bench/ppcap.c not built" ;;
	ours-erspan|ours-erspanfilter|stock+decap)
		if [ ! -x "$TD_OURS" ] || [ ! -x "$TD_STOCK" ]; then
			echo "tcpdump not built"
		elif ! td_has ours --erspan; then
			echo "tcpdump has no --erspan yet"
		fi ;;
	ours-*)	if [ ! -x "$TD_OURS" ]; then
			echo "our tcpdump not built"
		elif ! td_has ours --compress; then
			echo "tcpdump has no --compress yet"
		fi ;;
	stock+zstd)	have zstd || echo "zstd not installed" ;;
	stock+zstd-adapt)
		if ! have zstd; then
			echo "zstd not installed"
		elif ! zstd --help 2>&1 | grep -q -- --adapt; then
			echo "zstd has no --adapt"
		fi ;;
	stock+lz4)	have lz4 || echo "lz4 not installed" ;;
	stock+mbuffer)	have mbuffer || echo "mbuffer not installed" ;;
	dumpcap)	have dumpcap || echo "dumpcap not installed" ;;
	netsniff-ng)	have netsniff-ng || echo "netsniff-ng not installed" ;;
	*)	echo "unknown configuration" ;;
	esac
}

# The options that keep our tcpdump from starting a writer thread, which
# it does by default for a live -w (builds before that refuse
# --writer-ring=0, and need none).
ours_no_writer() {
	if [ -z "${OURS_NO_WRITER_SET:-}" ]; then
		OURS_NO_WRITER=()
		td_run ours --writer-ring=0 --version >/dev/null 2>&1 &&
		    OURS_NO_WRITER=(--writer-ring=0)
		OURS_NO_WRITER_SET=1
	fi
}

# The capture command of CONFIG writing to $1 ("-" = standard output),
# into the array CAPCMD.  Extra args (filters, -s/-B overrides) follow.
_capture_cmd() {
	ours_no_writer
	_cc_cfg=$1
	_cc_out=$2
	shift 2
	case $_cc_cfg in
	stock|stock+*)
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_STOCK" "$TD_STOCK" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" -w "$_cc_out" "$@") ;;
	ours=*)
		# ours=OPT,OPT...: our tcpdump with its defaults (a writer
		# thread for a live -w, the default ring) and these options
		IFS=, read -r -a _cc_opts <<<"${_cc_cfg#ours=}"
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" "${_cc_opts[@]}" -w "$_cc_out" "$@") ;;
	ours-erspan|ours-erspanfilter)
		# our defaults (a writer thread, as for any live -w)
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" -w "$_cc_out" "$@") ;;
	ours)
		# no writer thread: our tcpdump runs one by default for a
		# live -w, ours+w measures it
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" "${OURS_NO_WRITER[@]}" -w "$_cc_out" "$@") ;;
	ours+w)
		# the writer thread, no compression, unpinned
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" --writer-ring=128m -w "$_cc_out" "$@") ;;
	perpacket-*)
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$PPCAP" -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" -z "${_cc_cfg#perpacket-}"
		    -w "$_cc_out" "$@") ;;
	ours-w:*)
		# ours-w:RING:CPU -- the writer thread, CPU "any" = unpinned
		_cc_w=${_cc_cfg#ours-w:}
		_cc_ring=${_cc_w%%:*}
		_cc_cpu=${_cc_w#*:}
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" "--writer-ring=$_cc_ring")
		[ "$_cc_cpu" != any ] && CAPCMD+=("--writer-cpu=$_cc_cpu")
		CAPCMD+=(-w "$_cc_out" "$@") ;;
	ours-*+w)
		# ours-CODEC+w -- compression on the writer thread, with the
		# default ring, unpinned
		_cc_codec=${_cc_cfg#ours-}
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" "--compress=${_cc_codec%+w}"
		    --writer-ring=128m -w "$_cc_out" "$@") ;;
	ours-*)
		# compression on the capture thread (no writer thread)
		CAPCMD=(env "LD_LIBRARY_PATH=$LIB_OURS" "$TD_OURS" -n -i "$VETH_B"
		    -s "$SNAP" -B "$BUFKB" "--compress=${_cc_cfg#ours-}"
		    "${OURS_NO_WRITER[@]}" -w "$_cc_out" "$@") ;;
	dumpcap)
		# -B is in MiB for dumpcap; -P writes pcap, not pcapng.
		CAPCMD=(dumpcap -n -q -i "$VETH_B" -s "$SNAP"
		    -B "$((BUFKB / 1024))" -P -w "$_cc_out" "$@") ;;
	netsniff-ng)
		# It has no snapshot length (it keeps whole frames, as -s
		# 65535 does here); -S is its ring, the counterpart of -B;
		# -T writes classic pcap; -A and -Q keep it from retuning
		# the host's socket memory and IRQ affinity.
		CAPCMD=(netsniff-ng --in "$VETH_B" --out "$_cc_out" --silent
		    -T 0xa1b2c3d4 -A -Q --ring-size "${BUFKB}KiB" "$@") ;;
	esac
}

# main_thread_cpu_us PID: CPU time of PID's main thread so far, in
# microseconds (schedstat: nanoseconds, unlike the 10-ms ticks of stat),
# or "na".  A writer thread and its helpers are threads of their own.
main_thread_cpu_us() {
	awk '{ printf "%d\n", $1 / 1000 }' "/proc/$1/task/$1/schedstat" \
	    2>/dev/null || echo na
}

# td_counts FILE: "CAPTURED RECEIVED DROPPED" from the last figures
# tcpdump printed to FILE when asked (SIGUSR1), or nothing.
td_counts() {
	sed -n 's/^[a-z]*: \([0-9]*\) packets\{0,1\} captured, \([0-9]*\) packets\{0,1\} received by filter, \([0-9]*\) packets\{0,1\} dropped.*/\1 \2 \3/p' \
	    "$1" | tail -1
}

# thread_cpu PID: the CPU time of each of PID's threads so far, one
# "TID COMM NANOSECONDS" per thread, ";"-separated (schedstat's first
# field: time on CPU in ns; COMM with blanks as "_"), the main thread
# first.
thread_cpu() {
	for _tc_t in /proc/"$1"/task/"$1" /proc/"$1"/task/*; do
		[ "$_tc_t" = "/proc/$1/task/$1" ] && [ -n "${_tc_seen:-}" ] && continue
		_tc_seen=1
		_tc_c=
		_tc_n=
		{ read -r _tc_c <"$_tc_t/comm"; read -r _tc_n _ <"$_tc_t/schedstat"; } 2>/dev/null
		[ -n "$_tc_n" ] || continue
		printf '%s %s %s;' "${_tc_t##*/}" "${_tc_c// /_}" "$_tc_n"
	done
	_tc_seen=
}

capture_run() {
	_cfg=$1
	_sink=$2
	_type=$3
	_rate=$4
	_secs=$5
	shift 5
	CR_SENT=na CR_PPS=na CR_GOT=na CR_LOSS=na CR_TDCAP=na CR_TDDROP=na
	CR_EXPECTED=na CR_CAPCPU=na CR_LEVELS= CR_THREADCPU= CR_PROCMS=na
	CR_THREADCPU_READY= CR_COUNTED=na
	CR_NA=$(config_na "$_cfg")
	if [ -n "$CR_NA" ]; then
		return 2
	fi
	if ! gen_frames "$_type"; then
		CR_NA="no HTTP trace: $HTTP_TRACE_NA"
		return 2
	fi
	_s=$BENCH_SCRATCH
	rm -f "$_s"/cap.* "$_s"/fifo* "$_s"/*.err
	_file=$_s/cap.pcap
	_decomp=
	case $_cfg in
	stock+zstd|stock+zstd-adapt)
			_file=$_s/cap.pcap.zst; _decomp=zstd ;;
	stock+lz4)	_file=$_s/cap.pcap.lz4; _decomp=lz4 ;;
	perpacket-*)	_file=$_s/cap.pcap.pp; _decomp=ppcap ;;
	esac
	# CR_CPUS=LIST: the capture and the programs it pipes into run on
	# those CPUs only (taskset -c), so that every tool gets the same
	# CPUs; the slow sink stands for a disk and is not pinned.
	# CR_GEN_CPUS=LIST: the same for the sender, whose CPU also does the
	# receive path's work on a veth pair.
	_pin=()
	[ -n "${CR_CPUS:-}" ] && _pin=(taskset -c "$CR_CPUS")
	_gpin=()
	[ -n "${CR_GEN_CPUS:-}" ] && _gpin=(taskset -c "$CR_GEN_CPUS")
	# Consumers of the capture's standard output, in order.
	_stages=()
	case $_cfg in
	stock+zstd)	_stages+=("${_pin[*]}${_pin[*]:+ }zstd -1 -q -c") ;;
	# zstd's default start level (3) and range, as a user would run it;
	# its I/O thread and worker share the pinned CPUs.
	stock+zstd-adapt)
			_stages+=("${_pin[*]}${_pin[*]:+ }zstd --adapt -q -c") ;;
	stock+lz4)	_stages+=("${_pin[*]}${_pin[*]:+ }lz4 -1 -q -c") ;;
	stock+mbuffer)	_stages+=("${_pin[*]}${_pin[*]:+ }mbuffer -q -m 100M") ;;
	stock+decap)	_stages+=("$BENCH_TOOLS/erspan-decap") ;;
	esac
	if [ "$_sink" = slow ]; then
		_stages+=("$SLOWSINK --rate $SLOW_RATE --chunk 65536 --max-seconds 120 --out $_file")
	fi

	# Start the consumers on FIFOs, last first; the capture feeds fifo0.
	_pids=
	_n=${#_stages[@]}
	_cons_pids=()
	if [ "$_n" -gt 0 ]; then
		_k=0
		while [ "$_k" -le "$_n" ]; do
			mkfifo "$_s/fifo$_k" || return 1
			_k=$((_k + 1))
		done
		_k=$((_n - 1))
		while [ "$_k" -ge 0 ]; do
			_dst=$_s/fifo$((_k + 1))
			if [ "$_k" = "$((_n - 1))" ]; then
				case ${_stages[$_k]} in
				"$SLOWSINK"*)	_dst=/dev/null ;;
				*)		_dst=$_file ;;
				esac
			fi
			# shellcheck disable=SC2086 # a stage is a command line
			${_stages[$_k]} <"$_s/fifo$_k" >"$_dst" 2>"$_s/stage$_k.err" &
			_cons_pids+=($!)
			cmdlog "  ${_stages[$_k]} <fifo$_k >$(basename "$_dst")"
			_k=$((_k - 1))
		done
		_capture_cmd "$_cfg" - "$@"
		cmdlog "ip netns exec $NS_B ${_pin[*]}${_pin[*]:+ }${CAPCMD[*]} >fifo0"
		ip netns exec "$NS_B" "${_pin[@]}" "${CAPCMD[@]}" >"$_s/fifo0" 2>"$_s/cap.err" &
	else
		_capture_cmd "$_cfg" "$_file" "$@"
		cmdlog "ip netns exec $NS_B ${_pin[*]}${_pin[*]:+ }${CAPCMD[*]}"
		# netsniff-ng prints its counts on standard output.
		ip netns exec "$NS_B" "${_pin[@]}" "${CAPCMD[@]}" >"$_s/cap.out" 2>"$_s/cap.err" &
	fi
	_cap=$!

	_is_td=0
	is_tcpdump_like "$_cfg" && _is_td=1
	if ! capture_wait_ready "$_cap" "$_is_td" "$_s/cap.err"; then
		log "capture $_cfg did not start: $(head -2 "$_s/cap.err")"
		for _p in "${_cons_pids[@]}"; do proc_stop "$_p" TERM 20; done
		proc_stop "$_cap" TERM 20
		return 1
	fi
	# CR_THREADS=1: every thread's CPU time once the capture is ready
	# (it has said it is listening, the dumper and its writer thread are
	# up, no frame has been sent), so that what the packets cost can be
	# told from what starting cost: the capture's own start-up and that
	# of ip netns exec, taskset and env, which exec into its process.
	[ "${CR_THREADS:-0}" = 1 ] && [ "$_is_td" = 1 ] &&
	    CR_THREADCPU_READY=$(thread_cpu "$_cap")
	# CR_WRITER_NICE=N: the writer thread at nice N instead of tcpdump's.
	CR_WNICE=na
	if [ -n "${CR_WRITER_NICE:-}" ]; then
		set_writer_nice "$_cap" "$CR_WRITER_NICE" ||
		    log "no writer thread in $_cfg to renice"
	fi
	# CR_BUSY=N: N processes spinning on the CPUs for the run (CPU
	# contention), stopped after it.
	_busy=()
	_k=0
	while [ "$_k" -lt "${CR_BUSY:-0}" ]; do
		timeout 300 sh -c 'while :; do :; done' &
		_busy+=($!)
		_k=$((_k + 1))
	done

	_rx0=$(rx_packets)
	_count=$(awk -v r="$_rate" -v s="$_secs" 'BEGIN { printf "%d", r * s }')
	# CR_FRAMES=N: send N frames at the rate, however long that takes.
	[ -n "${CR_FRAMES:-}" ] && _count=$CR_FRAMES
	cmdlog "ip netns exec $NS_A ${_gpin[*]}${_gpin[*]:+ }$GEN ${GENF[*]} --count $_count --rate $_rate --seed 7 --threads $BENCH_GEN_THREADS ${CR_GEN_ARGS:-}${CR_GEN_ARGS:+ }--iface $VETH_A"
	_bgpid=
	if [ -n "${CR_BG:-}" ]; then
		# shellcheck disable=SC2086 # "TYPE RATE"
		set -- $CR_BG
		cmdlog "ip netns exec $NS_A $GEN --type $1 --duration $_secs --rate $2 --seq-start 100000000 --seed 9 --iface $VETH_A &"
		ip netns exec "$NS_A" "$GEN" --type "$1" --duration "$_secs" \
		    --rate "$2" --seq-start 100000000 --seed 9 \
		    --iface "$VETH_A" 2>"$_s/bg.err" &
		_bgpid=$!
	fi
	# shellcheck disable=SC2086 # options
	ip netns exec "$NS_A" "${_gpin[@]}" "$GEN" "${GENF[@]}" --count "$_count" \
	    --rate "$_rate" --seed 7 --threads "$BENCH_GEN_THREADS" \
	    ${CR_GEN_ARGS:-} --iface "$VETH_A" \
	    2>"$_s/gen.err"
	CR_SENT=$(sed -n 's/.*: sent \([0-9]*\) frames.*/\1/p' "$_s/gen.err")
	CR_PPS=$(sed -n 's/.*s: \([0-9]*\) pps.*/\1/p' "$_s/gen.err")
	if [ -z "$CR_SENT" ]; then
		log "sluice-gen failed: $(head -2 "$_s/gen.err")"
		CR_SENT=na
	fi
	_target=$CR_SENT
	if [ -n "$_bgpid" ]; then
		proc_wait_exit "$_bgpid" 30
		proc_stop "$_bgpid" INT 50
		_bgsent=$(sed -n 's/.*: sent \([0-9]*\) frames.*/\1/p' "$_s/bg.err")
		CR_BGSENT=${_bgsent:-na}
		[ -n "$_bgsent" ] && [ "$_target" != na ] &&
		    _target=$((_target + _bgsent))
	fi

	# Every frame has reached the capture side's receive path...
	_i=0
	while [ "$_i" -lt $((50 * PROC_POLLS_PER_TENTH)) ] && [ "$CR_SENT" != na ]; do
		_rx=$(rx_packets)
		[ $((_rx - _rx0)) -ge "$_target" ] && break
		sleep "$PROC_POLL"
		_i=$((_i + 1))
	done
	# ...and the capture has written what it could (at most 25 s).
	# dumpcap and netsniff-ng: 1.1 s have passed since the last frame
	# arrived, longer than the 1000 ms after which the kernel hands over
	# a partly filled TPACKET_V3 block, and their write count has stood
	# still for 0.3 s (to a file) or 1.5 s (to a pipe, where one large
	# write may block that long).  So a capture that does not read that
	# block on SIGINT is not charged with a lost tail: loss here
	# measures throughput only.
	# tcpdump (and ppcap) is asked instead, every 0.05 s (SIGUSR1; its
	# handler is SA_RESTART, so a blocked write is not disturbed) and is
	# done as soon as captured plus dropped reaches what was sent: that
	# is about 1 s after the burst, when the kernel hands over that last
	# block, and it is the only wait left between two runs that is not
	# a poll of a few ms.
	# With a filter, fewer than were sent pass it: then it is done when
	# captured plus dropped equals received and received stands still.
	# (Its stderr output moves its write count, so that is not used.)
	# CR_THREADS=1 measures CPU time, which each question costs the
	# capture thread (a wake-up and a few writes): tcpdump is not asked
	# but waited for as dumpcap is.
	_ask=0
	[ "$_is_td" = 1 ] && [ "${CR_THREADS:-0}" != 1 ] && _ask=1
	_last=-1
	_same=0
	_prev=-1
	_i=0
	_settle=15
	[ "$_n" = 0 ] && _settle=3
	while [ "$_i" -lt 500 ] && { [ "$_same" -lt "$_settle" ] || [ "$_i" -lt 22 ]; }; do
		if [ "$_ask" = 1 ] && [ "$CR_SENT" != na ]; then
			proc_alive "$_cap" || break
			kill -USR1 "$_cap" 2>/dev/null
			sleep 0.05
			_i=$((_i + 1))
			_st=$(td_counts "$_s/cap.err")
			_done=$(echo "$_st" | awk -v n="$_target" -v p="$_prev" '
			    NF == 3 { print ($1 + $3 >= n || ($1 + $3 >= $2 && $2 == p && $2 > 0)) ? 1 : 0 }')
			[ "$_done" = 1 ] && break
			_prev=$(echo "$_st" | awk '{ print $2 }')
			: "${_prev:=-1}"
			continue
		fi
		if ! wchar_look "$_cap"; then
			# No write count: gone, or (rarely) not readable; then
			# the wait is the time alone.
			proc_alive "$_cap" || break
			_same=$((_same + 1))
			sleep 0.1
		fi
		_i=$((_i + 2))
	done
	# The capture thread's CPU time (Gulp's question: what does each
	# packet cost the thread that must keep up with the link?).
	[ "$_is_td" = 1 ] && CR_CAPCPU=$(main_thread_cpu_us "$_cap")
	# CR_THREADS=1: every thread's CPU time (thread_cpu) once the
	# process has written what it holds (wchar still for 0.3 s, at most
	# 10 s: a writer thread may still be writing; for tcpdump, not asked
	# above, this only adds a margin), before SIGINT; with
	# CR_THREADCPU_READY, taken at ready, what the run itself cost.
	CR_THREADCPU=
	if [ "${CR_THREADS:-0}" = 1 ] && [ "$_is_td" = 1 ]; then
		_last=-1
		_same=0
		_i=0
		while [ "$_same" -lt 3 ] && [ "$_i" -lt 100 ]; do
			wchar_look "$_cap" || break
			_i=$((_i + 1))
		done
		CR_THREADCPU=$(thread_cpu "$_cap")
		# the whole process, exited threads too: utime + stime
		# (fields 14 and 15 of stat) in ms, a cross-check
		_st=
		{ read -r _st <"/proc/$_cap/stat"; } 2>/dev/null
		read -r -a _stf <<<"${_st##*) }"
		CR_PROCMS=$(awk -v u="${_stf[11]:-}" -v s="${_stf[12]:-}" \
		    -v h="$(getconf CLK_TCK)" 'BEGIN {
		    if (u == "" || h + 0 == 0) print "na"
		    else printf "%d\n", (u + s) * 1000 / h }')
		# One question, after the reading: had tcpdump counted every
		# frame it received (captured + dropped >= received)?  At
		# SIGINT our tcpdump reads what the kernel still holds, so its
		# last figures cannot tell.
		kill -USR1 "$_cap" 2>/dev/null
		_i=0
		_st=
		while [ -z "$_st" ] && [ "$_i" -lt 20 ]; do
			sleep 0.05
			_st=$(td_counts "$_s/cap.err")
			_i=$((_i + 1))
		done
		[ -n "$_st" ] && CR_COUNTED=$(echo "$_st" |
		    awk '{ print ($1 + $3 >= $2) ? 1 : 0 }')
		if [ "$CR_COUNTED" = 0 ]; then
			log "capture $_cfg: CPU read before every frame was counted ($_st: captured, received, dropped)"
		fi
	fi
	proc_stop "$_cap" INT 100
	for _p in "${_busy[@]}"; do proc_stop "$_p" TERM 20; done
	# The consumers end at end of input: mbuffer may hold 100 MB for a
	# 20 MB/s sink, so allow them a while (bounded).
	for _p in "${_cons_pids[@]}"; do
		proc_wait_exit "$_p" 600
		proc_stop "$_p" TERM 20
	done

	CR_TDCAP=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$_s/cap.err" | tail -1)
	CR_TDDROP=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' "$_s/cap.err" | tail -1)
	case $_cfg in
	dumpcap)
		CR_TDCAP=$(sed -n 's/.*Packets received\/dropped on interface.*: \([0-9]*\)\/\([0-9]*\).*/\1/p' "$_s/cap.err" | tail -1)
		CR_TDDROP=$(sed -n 's/.*Packets received\/dropped on interface.*: \([0-9]*\)\/\([0-9]*\).*/\2/p' "$_s/cap.err" | tail -1) ;;
	netsniff-ng)
		# Only when writing a file: to a pipe it prints nothing.
		# Its lines start with a carriage return.
		CR_TDCAP=$({ tr -d "\r" <"$_s/cap.out"; } 2>/dev/null |
		    sed -n 's/^ *\([0-9]*\)  *packets passed filter.*/\1/p' | tail -1)
		CR_TDDROP=$({ tr -d "\r" <"$_s/cap.out"; } 2>/dev/null |
		    sed -n 's/^ *\([0-9]*\)  *packets failed filter (out of space).*/\1/p' | tail -1) ;;
	esac
	: "${CR_TDCAP:=na}" "${CR_TDDROP:=na}"
	# The levels an adaptive writer chose ("zstd:auto"), as our tcpdump
	# prints them at exit: "-5: 12, 1: 300, stored: 3 (5 changes)".
	CR_LEVELS=$(sed -n 's/^blocks at compression level //p' "$_s/cap.err" | tail -1)
	# CR_NOCOUNT=1: no reading back (the frames need not be numbered,
	# and a 25-s capture is large): what tcpdump says it captured.
	if [ "${CR_NOCOUNT:-0}" = 1 ]; then
		CR_GOT=$CR_TDCAP
		[ "$CR_GOT" = na ] && CR_GOT=-1
	else
		CR_GOT=$(seqcount "$_file" "$_decomp" "${CR_COUNT:-}")
	fi
	rm -f "$_s"/cap.pcap* "$_s"/fifo*
	if [ "$CR_SENT" = na ] || [ "$CR_GOT" = -1 ]; then
		CR_GOT=na
		return 1
	fi
	# With CR_EXPECT_EVERY=K only every K-th sequence number is meant
	# to pass the filter (0, K, 2K...): loss is of those.
	CR_EXPECTED=$CR_SENT
	if [ -n "${CR_EXPECT_EVERY:-}" ] && [ "$CR_SENT" -gt 0 ]; then
		CR_EXPECTED=$(( (CR_SENT - 1) / CR_EXPECT_EVERY + 1 ))
	fi
	CR_LOSS=$(awk -v s="$CR_EXPECTED" -v g="$CR_GOT" 'BEGIN {
	    printf "%.3f", (s > 0) ? (s - g) * 100 / s : 0 }')
	return 0
}

# ratio_b LO HI REF_LO REF_HI: the ratio of two maximum lossless loads,
# each a bracket (LO lossless, HI lossy, "na" = lossless at every rate
# tried).  When a side never lost, the ratio is only a bound.
ratio_b() {
	_r=$(ratio "$1" "$3")
	if [ "$1" = 0 ] && [ "$3" = 0 ]; then
		echo "n/a (both lossy at every rate)"
	elif [ "$3" = 0 ] && [ "$1" != na ]; then
		echo "better (stock lossy at every rate)"
	elif [ "$1" = 0 ] && [ "$2" != na ]; then
		# lossy at every rate tried: below its lowest lossy rate
		echo "< x$(ratio "$2" "$3")"
	elif [ "$_r" = n/a ]; then
		echo "n/a"
	elif [ "$2" = na ] && [ "$4" = na ]; then
		echo "same (neither lost)"
	elif [ "$2" = na ]; then
		echo ">= x$_r"
	elif [ "$4" = na ]; then
		echo "<= x$_r"
	else
		echo "x$_r"
	fi
}
