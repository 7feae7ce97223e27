#!/bin/bash
# bench/offline.sh -- offline write throughput and file size: our
# tcpdump -r FILE -w OUT --compress=CODEC (with and without the writer
# thread) against stock tcpdump -r FILE -w OUT and against stock tcpdump
# piped into the codecs' command-line tools.  Offline: needs no root.
#
# For each frame type sluice-gen --out writes OFFLINE_MB megabytes of
# pcap into the scratch dir (page cache: the disk is not what is
# measured); each configuration reads it and writes its output there too.
# Reported per configuration: MB/s of input (median of OFFLINE_REPS, with
# min-max), CPU seconds (user + system of the whole pipeline), the output
# size as a fraction of the input, and both as ratios to stock.  The
# real HTTP trace (http-real, lib.sh bench_http_trace) is replayed by
# sluice-gen --replay --out to the same size.  A configuration whose
# command fails (a codec this build lacks: LZO is off by default) is
# reported n/a with tcpdump's message, never with a speed.

. "$(dirname "$0")/lib.sh"
bench_init || exit 1
NAME=offline
MD=$BENCH_OUT/$NAME.md
CSV=$BENCH_OUT/$NAME.csv
HL=$BENCH_OUT/$NAME.headline

if [ "$BENCH_MODE" = quick ]; then
	: "${OFFLINE_MB:=40}"
	: "${OFFLINE_REPS:=3}"
	TYPES="http http-real random1518"
else
	: "${OFFLINE_MB:=200}"
	: "${OFFLINE_REPS:=3}"	# 5 until 2026-11-22: cut for the full run's time
	TYPES="http http-real random1518 fixed1518 fixed64"
fi
bench_drop_http_real offline

bench_build_tools || exit 1

# The configurations: NAME|COMMAND, the command reading $in and writing
# $out.  Ours with --compress runs only if our tcpdump has it.
configs() {
	echo "stock|td_run stock -r \"\$in\" -w \"\$out\""
	echo "stock+gzip-1|td_run stock -r \"\$in\" -w - | gzip -1 >\"\$out\""
	echo "stock+lz4|td_run stock -r \"\$in\" -w - | lz4 -1 -q >\"\$out\""
	echo "stock+zstd-1|td_run stock -r \"\$in\" -w - | zstd -1 -q >\"\$out\""
	have lzop && echo "stock+lzop-1|td_run stock -r \"\$in\" -w - | lzop -1 >\"\$out\""
	echo "ours|td_run ours -r \"\$in\" -w \"\$out\""
	if td_has ours --compress; then
		# zstd is the default (the level adapts), zstd:1 a fixed level.
		for c in zstd zstd:1 lz4 gzip:1 lzo; do
			echo "ours-$c|td_run ours -r \"\$in\" -w \"\$out\" --compress=$c"
		done
	fi
	if td_has ours --writer-ring; then
		# A ring as big as the input: reading a file is faster than
		# any writer, and a smaller ring would drop (and count).
		echo "ours-zstd+writer|td_run ours -r \"\$in\" -w \"\$out\" --compress=zstd --writer-ring=$((OFFLINE_MB + 16))m"
	fi
}

echo "type,config,rep,seconds,cpu_seconds,in_bytes,out_bytes,status" >"$CSV"
ERRS=$BENCH_SCRATCH/offline-errors
TIMEFORMAT='%R %U %S'
for t in $TYPES; do
	in=$BENCH_SCRATCH/offline-$t.pcap
	out=$BENCH_SCRATCH/offline-out
	bench_gen_savefile "$t" "$OFFLINE_MB" "$in" || exit 1
	insize=$(stat -c %s "$in")
	cat "$in" >/dev/null	# into the page cache
	log "offline $t ($((insize / 1000000)) MB)"
	configs | while IFS='|' read -r cname cmd; do
		cmdlog "$cmd"
		r=1
		while [ $r -le "$OFFLINE_REPS" ]; do
			rm -f "$out"
			# pipefail: a failing tcpdump in front of a pipe fails too
			tm=$( { time { ( set -o pipefail; eval "$cmd" ) \
			    2>"$ERRS.err"; echo $? >"$ERRS.rc"; }; } 2>&1 | tail -1)
			osize=$(stat -c %s "$out" 2>/dev/null || echo 0)
			st=ok
			if [ "$(cat "$ERRS.rc")" != 0 ]; then
				st=failed
				# the first message, for the table
				head -1 "$ERRS.err" | tr -d ',|' >"$ERRS.$t.$cname"
			fi
			set -- $tm
			echo "$t,$cname,$r,$1,$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }'),$insize,$osize,$st" >>"$CSV"
			r=$((r + 1))
		done
	done
	rm -f "$in" "$out"
done

# col TYPE CONFIG FIELD: the FIELD values (4 seconds, 5 cpu, 7 out) of
# the repetitions that did not fail.
col() {
	awk -F, -v t="$1" -v c="$2" -v f="$3" '$1 == t && $2 == c && $8 == "ok" { print $f }' "$CSV"
}
mbps() {	# TYPE CONFIG: "median min max" MB/s of input
	awk -F, -v t="$1" -v c="$2" '$1 == t && $2 == c && $8 == "ok" && $4 > 0 {
	    printf "%.1f\n", $6 / $4 / 1e6 }' "$CSV" | stats | cut -d' ' -f1-3
}

{
	echo "## Offline write: tcpdump -r FILE -w OUT, compressed and not"
	echo
	echo "Input: $OFFLINE_MB MB of pcap per frame type (sluice-gen --out), read from"
	echo "and written to the page cache, $OFFLINE_REPS repetitions.  MB/s of input"
	echo "(median, min-max); CPU s = user + system time of the whole pipeline"
	echo "(median); size = output bytes / input bytes; x = ratio to stock."
	echo
	for t in $TYPES; do
		echo "### $t"
		echo
		echo "| configuration | MB/s | x stock | CPU s | size |"
		echo "|---|---|---|---|---|"
		read -r sm _ _ <<<"$(mbps "$t" stock)"
		for cname in $(awk -F, -v t="$t" 'NR > 1 && $1 == t { print $2 }' "$CSV" | awk '!s[$0]++'); do
			read -r m lo hi <<<"$(mbps "$t" "$cname")"
			if [ "$m" = na ]; then
				printf '| %s | n/a: %s | | | |\n' "$cname" \
				    "$(cat "$ERRS.$t.$cname" 2>/dev/null)"
				continue
			fi
			cpu=$(col "$t" "$cname" 5 | stats | cut -d' ' -f1)
			osz=$(col "$t" "$cname" 7 | stats | cut -d' ' -f1)
			isz=$(awk -F, -v t="$t" '$1 == t { print $6; exit }' "$CSV")
			printf '| %s | %s | %s | %s | %s |\n' "$cname" \
			    "$(fmt_spread "$m" "$lo" "$hi")" "$(ratio "$m" "$sm")" \
			    "$cpu" "$(awk -v o="$osz" -v i="$isz" 'BEGIN { printf "%.3f", o / i }')"
		done
		echo
	done
	[ -n "${NO_TRACE:-}" ] && echo "http-real: n/a ($NO_TRACE)." && echo
	echo "Raw data: [offline.csv](offline.csv)."
	echo
} >"$MD"

: >"$HL"
for t in $TYPES; do
	read -r sm _ _ <<<"$(mbps "$t" stock)"
	line="offline -r/-w, $t|stock $sm MB/s"
	for cname in ours-zstd ours-lz4 ours-zstd+writer stock+zstd-1 stock+lz4; do
		read -r m _ _ <<<"$(mbps "$t" "$cname")"
		[ -n "$m" ] && [ "$m" != na ] || continue
		osz=$(col "$t" "$cname" 7 | stats | cut -d' ' -f1)
		isz=$(awk -F, -v t="$t" '$1 == t { print $6; exit }' "$CSV")
		line="$line; $cname x$(ratio "$m" "$sm") size $(awk -v o="$osz" -v i="$isz" 'BEGIN { printf "%.3f", o / i }')"
	done
	echo "$line" >>"$HL"
done
exit 0
