#!/bin/sh
# kill-copy.sh TCPDUMP LIBDIR CODEC RUNS OUTDIR: copy a 3M-frame HTTP
# savefile with --compress=CODEC, SIGKILL it 0.1-0.9 s in, and check the
# file with sluice-seqcheck; prints one line per run and a summary.
set -u
td=$1 lib=$2 codec=$3 runs=$4 out=$5
chk=$SLUICE_BUILDDIR/tools/sluice-seqcheck
in=$out/in.pcap
mkdir -p "$out"
[ -f "$in" ] || $SLUICE_BUILDDIR/tools/sluice-gen --type http --count 3000000 --out "$in" >/dev/null 2>&1
cut=0 whole=0 bad=0 i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	f=$out/k.$i
	rm -f "$f"
	LD_LIBRARY_PATH=$lib "$td" -r "$in" --compress="$codec" -w "$f" 2>/dev/null &
	pid=$!
	sleep "0.$(( (i * 37) % 9 + 1 ))"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ -s "$f" ] || continue
	if LD_LIBRARY_PATH=$SLUICE_BUILDDIR/stage/usr/local/lib "$chk" "$f" >/dev/null 2>"$f.err"; then
		whole=$((whole + 1))
	elif grep -q "it ends inside the block" "$f.err"; then
		cut=$((cut + 1))
	else
		bad=$((bad + 1))
	fi
	rm -f "$f"
done
echo "$codec: $runs kills, $whole whole, $cut cut, $bad unreadable"
