#!/bin/sh
#
# tcpdump killed with SIGKILL in the middle of a compressed live capture,
# at a different moment each round: the writer writes each block with
# one write(), so the file holds whole blocks, frames 0..n-1 with none
# missing (the frames still in the ring and the unfinished block are
# lost, nothing else).  The write() the kill comes in is not cut short:
# it has O_DIRECT, which Linux finishes before the process dies, and it
# ends with a unit that readers skip, up to a page boundary; so the file
# reads to its end and its size is a multiple of 4096.  Where the file
# system keeps O_DIRECT writes in memory or refuses them (tmpfs), Linux
# stops copying the write into memory at the fatal signal, at a page or
# folio boundary: then the last block may be cut short, the file reads
# to that block and the reader says so, in one sentence, and nothing
# else.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup
if direct_io_works "$TMPDIR"; then
	direct=1
else
	direct=0
	t_skip "kills during O_DIRECT writes" \
	    "the file system of $TMPDIR keeps O_DIRECT writes in memory or refuses them (tmpfs): the kill may cut the last block"
fi
# The reader's one error for a last block cut short; \1 is its offset.
cut_short='^sluice-seqcheck: .*: truncated .* compressed file: it ends'
cut_short="$cut_short inside the block starting at byte offset \\([0-9]*\\)"
cut_short="$cut_short (after [0-9]* frames)\$"
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
	size=$(stat -c %s "$f")
	echo "# $codec: killed after 0.$delay s, $size bytes on disk"
	if "$CHK" "$f" >"$TMPDIR/chk-$codec" 2>&1; then
		t_ok "$codec: the file reads to its end without an error"
	elif [ $direct = 1 ]; then
		t_fail "$codec: written with O_DIRECT, the file does not read to its end: $(grep '^sluice-seqcheck: ' "$TMPDIR/chk-$codec" | head -1)"
	elif [ "$(grep -c '^sluice-seqcheck: ' "$TMPDIR/chk-$codec")" = 1 ] &&
	    off=$(sed -n "s/$cut_short/\\1/p" "$TMPDIR/chk-$codec") &&
	    [ -n "$off" ] && [ "$off" -gt 0 ] &&
	    [ "$off" -lt "$(stat -c %s "$f")" ]; then
		t_ok "$codec: the file reads to its last block, from byte" \
		    "$off, which the kill cut short, and the reader says so"
	else
		t_fail "$codec: reading the file: $(grep -v '^[a-z-]*: [0-9]*$' "$TMPDIR/chk-$codec" | tail -2 | tr '\n' '|')"
	fi
	[ $direct = 0 ] ||
	    t_expect_eq "$codec: the file ends at a page (O_DIRECT)" 0 $((size % 4096))
	n=$(sed -n 's/^frames: //p' "$TMPDIR/chk-$codec")
	t_check "$codec: it holds frames 0..$((${n:-1} - 1)), none missing" \
	    sh -c "test '${n:-0}' -gt 0 &&
	        grep -q '^first: 0\$' '$TMPDIR/chk-$codec' &&
	        grep -q '^missing: 0\$' '$TMPDIR/chk-$codec' &&
	        grep -q '^out-of-order: 0\$' '$TMPDIR/chk-$codec'"
done
t_done
