#!/bin/sh
#
# run.sh BEFORE_LIBDIR NOW_LIBDIR INCLUDEDIR SLUICE_GEN OUTDIR
#
# Callgrind's instruction counts of pcap_dump() per record, for two
# builds of libpcap.so, with 0 and 8 other dumpers with options open;
# the measured dumper plain (pcap_dump_open()), with options and no
# compression ("none") or zstd, opened after the others or before them.
# Writes OUTDIR/counts.csv.
set -eu
[ $# -eq 5 ] || { echo "usage: run.sh BEFORE_LIBDIR NOW_LIBDIR INCLUDEDIR SLUICE_GEN OUTDIR" >&2; exit 2; }
before=$1 now=$2 inc=$3 gen=$4 out=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cc -O2 -g -Wall -I"$inc" -o "$out/dumppath" "$here/dumppath.c" \
    -L"$now" -lpcap
"$gen" --type http --count 20000 --out "$out/in.pcap"
echo "build,others,measured,opened,records,pcap_dump_per_record,hook_self_per_record" \
    >"$out/counts.csv"
for build in before now; do
	eval lib=\$$build
	for case in "0 plain" "0 none" "0 zstd" "8 plain" "8 none" "8 zstd" \
	    "8 none first" "8 zstd first"; do
		set -- $case
		d=$out/$build-$1-$2${3:+-$3}
		rm -rf "$d"
		mkdir -p "$d"
		LD_LIBRARY_PATH=$lib valgrind --tool=callgrind \
		    --callgrind-out-file="$d/cg.out" \
		    "$out/dumppath" "$out/in.pcap" "$d" "$@" \
		    >"$d/stdout" 2>"$d/stderr"
		rec=$(sed -n 's/^records: //p' "$d/stdout")
		# Inclusive count of pcap_dump(), self count of the hook
		# that finds a dumper with options from its FILE *.
		incl=$(callgrind_annotate --inclusive=yes "$d/cg.out" |
		    awk 'NF > 1 && $(NF-1) ~ /:pcap_dump$/ { gsub(",", "", $1); print $1; exit }')
		self=$(callgrind_annotate "$d/cg.out" |
		    awk '/:pcapint_dump_compress_record / { gsub(",", "", $1); print $1; exit }')
		opened=after
		[ "${3:-}" = first ] && opened=before
		echo "$build,$1,$2,$opened,$rec,$((incl / rec)),$((${self:-0} / rec))" \
		    >>"$out/counts.csv"
	done
done
