#!/bin/sh
#
# tcpdump killed with SIGKILL in the middle of a compressed live capture,
# at a different moment each round: the writer writes each block with
# one write(), so the file ends at a block boundary and reads to its end
# with no error, holding frames 0..n-1 with none missing (the frames
# still in the ring and the unfinished block are lost, nothing else).

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup
# A different moment each run, printed so that a failure can be rerun.
seed=$(( $$ % 5 ))
round=0
for codec in zstd lz4 gzip; do
	round=$((round + 1))
	delay=$(( 3 + (seed + round * 2) % 6 ))	# tenths of a second, 0.3-0.8
	f=$TMPDIR/kill-$codec.pcap
	start_tcpdump "kill-$codec" -s 2048 -B 16384 --compress="$codec" -w "$f"
	netns_exec "$NS_A" "$GEN" --type http --count 40000 --rate 40000 \
	    --iface "$VETH_A" 2>/dev/null &
	gen=$!
	sleep "0.$delay"
	kill -KILL "$TD" 2>/dev/null
	wait "$TD" 2>/dev/null
	wait "$gen"
	echo "# $codec: killed after 0.$delay s, $(stat -c %s "$f") bytes on disk"
	if "$CHK" "$f" >"$TMPDIR/chk-$codec" 2>&1; then
		t_ok "$codec: the file reads to its end without an error"
	else
		t_fail "$codec: reading the file: $(tail -2 "$TMPDIR/chk-$codec" | tr '\n' '|')"
	fi
	n=$(sed -n 's/^frames: //p' "$TMPDIR/chk-$codec")
	t_check "$codec: it holds frames 0..$((${n:-1} - 1)), none missing" \
	    sh -c "test '${n:-0}' -gt 0 &&
	        grep -q '^first: 0\$' '$TMPDIR/chk-$codec' &&
	        grep -q '^missing: 0\$' '$TMPDIR/chk-$codec' &&
	        grep -q '^out-of-order: 0\$' '$TMPDIR/chk-$codec'"
done
t_done
