#!/bin/bash
# bench/codec.sh -- codec throughput against block size (Shimizu et al.,
# Fig. 4) and the compression ratio per codec and frame type (Table 1).
#
# For each frame type, sluice-gen --out writes a pcap byte stream of about
# CODEC_MB megabytes; codecbench (bench/codecbench.c) writes its records
# through our libpcap's compressing dumper at each codec and block size,
# so the figures are those of the shipped code, and prints throughput
# (MB/s of input per core, median of CODEC_REPS with min-max) and ratio
# (compressed / input).  Offline: needs no root.

. "$(dirname "$0")/lib.sh"
bench_init || exit 1
NAME=codec
MD=$BENCH_OUT/$NAME.md
CSV=$BENCH_OUT/codec.csv
HL=$BENCH_OUT/$NAME.headline

if [ "$BENCH_MODE" = quick ]; then
	: "${CODEC_MB:=3}"
	: "${CODEC_REPS:=3}"
	: "${CODEC_BLOCKS:=4k,32k,256k,1024k}"
else
	: "${CODEC_MB:=8}"	# 16 until 2026-11-22: halved for the full run's time
	: "${CODEC_REPS:=3}"
	: "${CODEC_BLOCKS:=4k,8k,16k,32k,64k,128k,256k,512k,1024k}"
fi
TYPES="fixed64 fixed1518 random64 random1518 slammer http"
# The real HTTP trace (lib.sh), as recorded: made here if need be.
if bench_http_trace; then
	TYPES="$TYPES http-real"
fi
CODECS="lz4 lzo1x-1 zstd-1 zstd-3 zstd-fast5 zlib-1"
# Per-packet compression (Shimizu's scheme, bench/ppcap.c), block 0 in
# the CSV: their two codecs, on small, large and HTTP frames.
: "${CODEC_PKT_CODECS:=lzo1x-1,zlib-1}"
: "${CODEC_PKT_TYPES:=fixed64 fixed1518 http}"
REF_BLOCK=32768		# Shimizu's compression buffer
TD_BYTES=$SLOW_BYTES	# the slow sink's rate, for Shimizu's condition

bench_build_tools || exit 1

# bytes per record (frame + 16-byte pcap record header), to size the file
rec_bytes() {
	case $1 in
	fixed64|random64)	echo 76 ;;
	fixed1518|random1518)	echo 1530 ;;
	slammer)		echo 434 ;;
	http)			echo 440 ;;
	http-real)		echo 1000 ;;	# about: mostly 1514-byte frames
	esac
}

echo "type,codec,block,mbps_median,mbps_min,mbps_max,ratio" >"$CSV"
status=0
for t in $TYPES; do
	n=$((CODEC_MB * 1000000 / $(rec_bytes "$t")))
	f=$BENCH_SCRATCH/codec-$t.pcap
	if [ "$t" = http-real ]; then
		# The first frames of the trace, as recorded.
		cmdlog "tcpdump -r http-real.pcap -c $n -w $f"
		if ! td_run stock -r "$HTTP_TRACE" -c "$n" -w "$f" 2>/dev/null; then
			log "cannot copy the HTTP trace"
			exit 1
		fi
	else
		cmdlog "$GEN --type $t --count $n --seed 5 --out $f"
		if ! "$GEN" --type "$t" --count "$n" --seed 5 --out "$f" 2>/dev/null; then
			log "sluice-gen --out failed for $t"
			exit 1
		fi
	fi
	cmdlog "$CODECBENCH --reps $CODEC_REPS --blocks $CODEC_BLOCKS --type $t $f"
	log "codecbench $t ($(($(stat -c %s "$f") / 1000)) kB)"
	if ! LD_LIBRARY_PATH=$LIB_OURS "$CODECBENCH" --reps "$CODEC_REPS" --blocks "$CODEC_BLOCKS" \
	    --type "$t" "$f" >>"$CSV" 2>"$BENCH_OUT/codec-$t.err"; then
		log "codecbench failed for $t: $(head -2 "$BENCH_OUT/codec-$t.err")"
		status=1
	fi
	case " $CODEC_PKT_TYPES " in
	*" $t "*)
		cmdlog "$CODECBENCH --reps $CODEC_REPS --blocks pkt --codecs $CODEC_PKT_CODECS --type $t $f"
		if ! LD_LIBRARY_PATH=$LIB_OURS "$CODECBENCH" --reps "$CODEC_REPS" --blocks pkt \
		    --codecs "$CODEC_PKT_CODECS" --type "$t" "$f" >>"$CSV" \
		    2>>"$BENCH_OUT/codec-$t.err"; then
			log "codecbench per packet failed for $t: $(head -2 "$BENCH_OUT/codec-$t.err")"
			status=1
		fi ;;
	esac
	rm -f "$f"
done

# Plot: throughput vs block size, one panel per frame type.
gp=$BENCH_OUT/codec.gp
{
	rows=$(( ($(echo "$TYPES" | wc -w) + 2) / 3 ))
	echo "set terminal pngcairo size 1500,$((rows * 400)) font ',9'"
	echo "set output '$BENCH_OUT/codec-throughput.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout $rows,3 title 'Codec throughput vs block size (MB/s of input, one core, median of $CODEC_REPS)'"
	echo "set logscale x 2; set logscale y; set xlabel 'block size (KiB)'; set ylabel 'MB/s'; set key bottom right font ',8'; set grid"
	for t in $TYPES; do
		echo "set title '$t'"
		plots=
		for c in $CODECS; do
			plots="$plots${plots:+, }'$CSV' using (strcol(1) eq '$t' && strcol(2) eq '$c' ? \$3/1024 : NaN):4 with linespoints title '$c'"
		done
		echo "plot $plots"
	done
	echo "unset multiplot"
	echo "set output '$BENCH_OUT/codec-ratio.png'"
	echo "set terminal pngcairo size 1500,$((rows * 400)) font ',9'"
	echo "set multiplot layout $rows,3 title 'Compression ratio vs block size (compressed / input)'"
	echo "unset logscale y; set yrange [0:1.05]; set ylabel 'ratio'"
	for t in $TYPES; do
		echo "set title '$t'"
		plots=
		for c in $CODECS; do
			plots="$plots${plots:+, }'$CSV' using (strcol(1) eq '$t' && strcol(2) eq '$c' ? \$3/1024 : NaN):7 with linespoints title '$c'"
		done
		echo "plot $plots"
	done
	echo "unset multiplot"
} >"$gp"
gnuplot "$gp" 2>"$BENCH_OUT/codec.gp.err" || log "gnuplot failed for codec (see codec.gp.err)"

# field TYPE CODEC BLOCK COL
field() {
	awk -F, -v t="$1" -v c="$2" -v b="$3" -v f="$4" \
	    '$1 == t && $2 == c && $3 == b { print $f }' "$CSV"
}
shimizu() {	# Table 1, LZO / zlib-1
	case $1:$2 in
	fixed64:lzo1x-1) echo 0.068 ;; fixed64:zlib-1) echo 0.034 ;;
	fixed1518:lzo1x-1) echo 0.020 ;; fixed1518:zlib-1) echo 0.017 ;;
	random64:lzo1x-1) echo 0.602 ;; random64:zlib-1) echo 0.534 ;;
	random1518:lzo1x-1) echo 0.985 ;; random1518:zlib-1) echo 0.973 ;;
	*) echo "" ;;
	esac
}

# The block size the tables use: 32 KiB if measured, else the first.
ref=$REF_BLOCK
[ -n "$(field fixed64 lz4 "$ref" 7)" ] ||
    ref=$(awk -F, 'NR == 2 { print $3 }' "$CSV")

{
	echo "## Codecs: throughput vs block size (Shimizu Fig. 4) and ratio (Table 1)"
	echo
	echo "Input: for each frame type a pcap byte stream of about $CODEC_MB MB written by"
	echo "\`sluice-gen --out\`; its records written with pcap_dump() through our"
	echo "libpcap's compressing dumper (no writer thread) at each codec, level and"
	echo "block size, into /dev/null: the shipped code, containers and skip included."
	echo "Throughput: MB/s of input per second of CPU time, median of $CODEC_REPS"
	echo "(min-max); the ratio is of a file written the same way, read back through"
	echo "pcap_open_offline() and compared before timing.  Codecs: lz4:1 (LZ4"
	echo "frames), lzo (LZO1X-1, if libpcap has it), zstd:1, zstd:3 and zstd:-5"
	echo "(--fast=5), zlib-1 (gzip:1, a gzip member per block).  Per packet"
	echo "(block 0), the libraries directly."
	echo
	echo "![throughput](codec-throughput.png)"
	echo
	echo "![ratio](codec-ratio.png)"
	echo
	echo "### Compression ratio (compressed / input) at $((ref / 1024)) KiB blocks"
	echo
	printf '| codec |'; for t in $TYPES; do printf ' %s |' "$t"; done; echo
	printf '|---|'; for t in $TYPES; do printf -- '---|'; done; echo
	for c in $CODECS; do
		printf '| %s |' "$c"
		for t in $TYPES; do
			r=$(field "$t" "$c" "$ref" 7)
			p=$(shimizu "$t" "$c")
			printf ' %s%s |' "${r:-n/a}" "${p:+ (2006: $p)}"
		done
		echo
	done
	echo
	echo "In parentheses: Shimizu et al. Table 1 (their LZO1X-1 and zlib-1 on their"
	echo "generated frames; \"random\" there and here are random payloads, so both sit"
	echo "near 1)."
	if [ -n "${HTTP_TRACE:-}" ]; then
		echo "http-real: a real HTTP trace, $(td_run stock -nr "$HTTP_TRACE" 2>/dev/null | wc -l) frames ($(($(stat -c %s "$HTTP_TRACE") / 1000)) kB) that"
		echo "stock tcpdump recorded on the loopback of a namespace where nginx served a"
		echo "small site (HTML, text, gzip, 404s) to wrk (see bench/README)."
	else
		echo "http-real: n/a ($HTTP_TRACE_NA)."
	fi
	echo
	echo "### Throughput (MB/s) at $((ref / 1024)) KiB blocks, and Shimizu's condition"
	echo
	echo "A codec pays off on a disk of throughput Td when Tc > Td / (1 - r)"
	echo "(Tc codec throughput, r ratio).  A trailing \"+\" marks a codec that meets"
	echo "the condition for Td = 20 MB/s (the slow sink of the loss experiment),"
	echo "\"-\" one that does not."
	echo
	printf '| codec |'; for t in $TYPES; do printf ' %s |' "$t"; done; echo
	printf '|---|'; for t in $TYPES; do printf -- '---|'; done; echo
	for c in none $CODECS; do
		printf '| %s |' "$c"
		for t in $TYPES; do
			m=$(field "$t" "$c" "$ref" 4)
			lo=$(field "$t" "$c" "$ref" 5)
			hi=$(field "$t" "$c" "$ref" 6)
			r=$(field "$t" "$c" "$ref" 7)
			if [ -z "$m" ]; then
				printf ' n/a |'
				continue
			fi
			w=
			if [ "$c" != none ]; then
				w=$(awk -v tc="$m" -v r="$r" -v td="$TD_BYTES" 'BEGIN {
				    if (r >= 1) print " -"; else print (tc * 1e6 > td / (1 - r)) ? " +" : " -" }')
			fi
			printf ' %s%s |' "$(fmt_spread "$m" "$lo" "$hi")" "$w"
		done
		echo
	done
	echo
	echo "### Per packet (Shimizu's per-packet compression) against $((ref / 1024)) KiB blocks"
	echo
	echo "Each packet compressed on its own (the 16-byte record header stored as it is,"
	echo "plus a 4-byte length: the perpacket-* captures of the loss section), MB/s of"
	echo "packet bytes per core, median (min-max); ratio = output / input."
	echo
	md_head codec type "per packet MB/s" "per packet ratio" "$((ref / 1024)) KiB MB/s" "$((ref / 1024)) KiB ratio"
	for c in $(echo "$CODEC_PKT_CODECS" | tr ',' ' '); do
		for t in $CODEC_PKT_TYPES; do
			case " $TYPES " in *" $t "*) ;; *) continue ;; esac
			md_row "$c" "$t" \
			    "$(fmt_spread "$(field "$t" "$c" 0 4)" "$(field "$t" "$c" 0 5)" "$(field "$t" "$c" 0 6)")" \
			    "$(field "$t" "$c" 0 7)" "$(field "$t" "$c" "$ref" 4)" "$(field "$t" "$c" "$ref" 7)"
		done
	done
	echo
	echo "Raw data: [codec.csv](codec.csv) (all block sizes; block 0 = per packet)."
	echo
} >"$MD"

: >"$HL"
for t in fixed1518 random1518 http ${HTTP_TRACE:+http-real}; do
	line="codec @$((ref / 1024))KiB, $t|"
	sep=
	for c in $CODECS; do
		mbps=$(field "$t" "$c" "$ref" 4)
		if [ -n "$mbps" ]; then
			line="$line$sep$c $mbps MB/s r=$(field "$t" "$c" "$ref" 7)"
		else
			line="$line$sep$c n/a"	# not in this libpcap (lzo)
		fi
		sep="; "
	done
	echo "$line" >>"$HL"
done
exit $status
