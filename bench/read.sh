#!/bin/bash
# bench/read.sh -- reading compressed savefiles: our tcpdump -r FILE.zst
# (libpcap decompresses, pcap_open_offline() as for any savefile)
# against the pipe every libpcap program needs without it, zstd -dc FILE
# | stock tcpdump -r -, and the same for lz4 and gzip; stock tcpdump -r
# on the plain file is the reference.  Offline: needs no root.
#
# One savefile per frame type (sluice-gen --out, READ_MB megabytes; the
# real HTTP trace when lib.sh can record one), compressed by the tools
# (zstd -1, lz4 -1, gzip -1), all in the page cache.  Every command runs
# pinned to the same single CPU (taskset -c READ_CPU), the decompressor
# of a pipe included, as a capture host that reads while it captures
# would give it.  Each reads the whole file and writes nothing
# (-w /dev/null), so that what is measured is decompressing and parsing.
# Reported: MB/s of the uncompressed savefile (median of READ_REPS, with
# min-max), CPU seconds of the whole pipeline, and ratios to the pipe.

. "$(dirname "$0")/lib.sh"
bench_init || exit 1
NAME=read
MD=$BENCH_OUT/$NAME.md
CSV=$BENCH_OUT/$NAME.csv
HL=$BENCH_OUT/$NAME.headline

if [ "$BENCH_MODE" = quick ]; then
	: "${READ_MB:=40}"
	: "${READ_REPS:=3}"
	TYPES="http"
else
	: "${READ_MB:=200}"
	: "${READ_REPS:=3}"
	TYPES="http http-real random1518"
fi
: "${READ_CPU:=0}"
bench_drop_http_real read
bench_build_tools || exit 1

# The configurations: NAME|COMMAND, reading $base (plain) or $base.EXT.
configs() {
	echo "stock plain|td_run stock -r \"\$base\" -w /dev/null"
	for c in zstd lz4 gzip; do
		echo "pipe $c|$c -dc <\"\$base.$c\" | td_run stock -r - -w /dev/null"
		echo "ours $c|td_run ours -r \"\$base.$c\" -w /dev/null"
	done
}

# The commands run in a pinned bash of their own.
export -f td_run
export LIB_STOCK TD_STOCK LIB_OURS TD_OURS
echo "type,config,rep,seconds,cpu_seconds,in_bytes,status" >"$CSV"
ERRS=$BENCH_SCRATCH/read-errors
TIMEFORMAT='%R %U %S'
for t in $TYPES; do
	base=$BENCH_SCRATCH/read-$t.pcap
	export base
	bench_gen_savefile "$t" "$READ_MB" "$base" || exit 1
	zstd -1 -q -c <"$base" >"$base.zstd" && lz4 -1 -q -c <"$base" >"$base.lz4" &&
	    gzip -1 -c <"$base" >"$base.gzip" || { log "a codec tool failed"; exit 1; }
	insize=$(stat -c %s "$base")
	cat "$base" "$base".* >/dev/null	# into the page cache
	log "read $t ($((insize / 1000000)) MB)"
	configs | while IFS='|' read -r cname cmd; do
		cmd="taskset -c $READ_CPU bash -c 'set -o pipefail; $cmd'"
		cmdlog "$cmd"
		r=1
		while [ "$r" -le "$READ_REPS" ]; do
			tm=$( { time { eval "$cmd" 2>"$ERRS.err"; echo $? >"$ERRS.rc"; }; } 2>&1 | tail -1)
			st=ok
			[ "$(cat "$ERRS.rc")" = 0 ] || st=failed
			set -- $tm
			echo "$t,$cname,$r,$1,$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }'),$insize,$st" >>"$CSV"
			r=$((r + 1))
		done
	done
	rm -f "$base" "$base".*
done

mbps() {	# TYPE CONFIG: "median min max" MB/s of the uncompressed file
	awk -F, -v t="$1" -v c="$2" '$1 == t && $2 == c && $7 == "ok" && $4 > 0 {
	    printf "%.1f\n", $6 / $4 / 1e6 }' "$CSV" | stats | cut -d' ' -f1-3
}
cpu() {		# TYPE CONFIG: median CPU seconds
	awk -F, -v t="$1" -v c="$2" '$1 == t && $2 == c && $7 == "ok" { print $5 }' "$CSV" |
	    stats | cut -d' ' -f1
}

{
	echo "## Reading compressed savefiles: tcpdump -r FILE.zst against zstd -dc | tcpdump -r -"
	echo
	echo "Input: $READ_MB MB of pcap per frame type, compressed by zstd -1, lz4 -1 and"
	echo "gzip -1, read from the page cache, $READ_REPS repetitions; every pipeline pinned"
	echo "to CPU $READ_CPU.  MB/s of the uncompressed savefile (median, min-max); CPU s ="
	echo "user + system time of the whole pipeline (median); x pipe = ours / the pipe"
	echo "of the same codec (MB/s, and CPU s)."
	echo
	for t in $TYPES; do
		echo "### $t"
		echo
		echo "| configuration | MB/s | CPU s | x pipe, MB/s | x pipe, CPU s |"
		echo "|---|---|---|---|---|"
		configs | while IFS='|' read -r cname _; do
			read -r m lo hi <<<"$(mbps "$t" "$cname")"
			if [ "$m" = na ]; then
				printf '| %s | n/a | | | |\n' "$cname"
				continue
			fi
			c=$(cpu "$t" "$cname")
			xm= xc=
			case $cname in
			ours\ *)
				read -r pm _ _ <<<"$(mbps "$t" "pipe ${cname#ours }")"
				xm=$(ratio "$m" "$pm")
				xc=$(ratio "$c" "$(cpu "$t" "pipe ${cname#ours }")") ;;
			esac
			printf '| %s | %s | %s | %s | %s |\n' "$cname" \
			    "$(fmt_spread "$m" "$lo" "$hi")" "$c" "$xm" "$xc"
		done
		echo
	done
	[ -n "${NO_TRACE:-}" ] && echo "http-real: n/a ($NO_TRACE)." && echo
	echo "Raw data: [read.csv](read.csv)."
	echo
} >"$MD"

: >"$HL"
for t in $TYPES; do
	line="read -r FILE.zst, $t"
	sep='|'
	for c in zstd lz4 gzip; do
		read -r m _ _ <<<"$(mbps "$t" "ours $c")"
		read -r pm _ _ <<<"$(mbps "$t" "pipe $c")"
		[ -n "$m" ] && [ "$m" != na ] || continue
		line="$line${sep}$c $m MB/s, x$(ratio "$m" "$pm") the pipe"
		sep='; '
	done
	echo "$line" >>"$HL"
done
exit 0
