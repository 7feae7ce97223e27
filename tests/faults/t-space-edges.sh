#!/bin/sh
#
# The edges of a full disk, on a savefile read and written again, where
# the failwrite shim (SLUICE_FAILWRITE=full:N) lets the file hold only N
# bytes, as a full disk does: a write that crosses N writes what fits,
# the next fails with ENOSPC, and cutting the file back makes room.
#
# - A stop that begins and ends between two of tcpdump's looks at the
#   dumper (every 256 packets, and at the end): without the writer
#   thread, the second of three 1 MiB blocks of 685 packets finds no
#   space at packet 1370, after the look at packet 1280, and the last
#   block, 130 packets written at exit, fits.  tcpdump must still say
#   that writing stopped and resumed, list the stop in its figures,
#   count the 685 packets lost and exit 1; the file must read to its
#   end with every other packet.
# - A trailer that finds no space: only the lzop container ends with
#   one (4 bytes).  With room for all but 2 of its bytes, the file must
#   be cut back to its last block, so that it holds every packet and
#   reads to its end.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

build_traffic_tools
preload_shim failwrite

# 1500 incompressible 1518-byte frames: 685 fill a 1 MiB block.
N=1500
in=$TMPDIR/in.pcap
"$GEN" --type random1518 --count $N --out "$in" 2>/dev/null

# full_run NAME ROOM CODEC: tcpdump -r in -w NAME.pcap without the
# writer thread, the file holding at most ROOM bytes; stderr in NAME.err.
full_run() {
	env LD_PRELOAD="$shim" SLUICE_FAILWRITE="full:$2" \
	    "$TCPDUMP" -r "$in" -w "$TMPDIR/$1.pcap" --compress="$3" \
	    --writer-ring=0 2>"$TMPDIR/$1.err"
	rc=$?
	sed "s/^/# $1: /" "$TMPDIR/$1.err"
}

# The size of the whole file, then room for 300,000 bytes less than
# that: the second block cannot fit, the third (about 200,000 bytes)
# then can.
"$TCPDUMP" -r "$in" -w "$TMPDIR/whole.pcap" --compress=zstd \
    --writer-ring=0 2>/dev/null
t_expect_eq "the whole file, with room for it: exit 0" 0 "$?"
whole=$(wc -c <"$TMPDIR/whole.pcap")
full_run unseen $((whole - 300000)) zstd
f=$TMPDIR/unseen.pcap
t_expect_eq "a stop between two looks: tcpdump exits 1, as packets were lost" 1 "$rc"
t_check "... it says that writing stopped for lack of space and has resumed" \
    grep -qx "tcpdump: $f: writing stopped for lack of space and has resumed; packets were lost meanwhile" \
    "$TMPDIR/unseen.err"
t_check "... and nothing says that it is still stopped" \
    sh -c "! grep -q 'packets are lost until there is space' '$TMPDIR/unseen.err'"
t_check "... the figures list the stop as ended by the time it was seen" \
    grep -qx '1 stop for lack of space (ended by [0-9][0-9]:[0-9][0-9]:[0-9][0-9])' \
    "$TMPDIR/unseen.err"
lost=$(figure "lost to write errors" "$TMPDIR/unseen.err")
t_expect_eq "... the 685 packets of the block that found no space are lost" \
    685 "${lost:-none}"
"$CHK" "$f" >"$TMPDIR/unseen.chk" 2>&1
chk=$?
sed 's/^/# seqcheck: /' "$TMPDIR/unseen.chk"
t_expect_eq "... the file reads to its end without an error" 0 "$chk"
t_check "... holding the $((N - 685)) other packets, in order, the lost ones missing" \
    sh -c "grep -qx 'frames: $((N - 685))' '$TMPDIR/unseen.chk' &&
        grep -qx 'missing ranges: 685-1369' '$TMPDIR/unseen.chk' &&
        grep -qx 'out-of-order: 0' '$TMPDIR/unseen.chk'"

if ! "$TCPDUMP" -r "$in" -w "$TMPDIR/probe.pcap" --compress=lzo \
    --writer-ring=0 2>/dev/null; then
	if [ -n "${SLUICE_MASTER_SERIES:-}" ]; then
		why="the master series leaves the lzop container out"
	else
		why="libpcap was built without --with-lzo"
	fi
	t_skip "an lzop trailer that finds no space" "$why"
	t_done
fi
whole=$(wc -c <"$TMPDIR/probe.pcap")
full_run trailer $((whole - 2)) lzo
f=$TMPDIR/trailer.pcap
t_expect_eq "an lzop trailer with room for 2 of its 4 bytes: the file is cut back to its last block" \
    $((whole - 4)) "$(wc -c <"$f")"
t_expect_eq "... tcpdump exits 0: every packet is in the file" 0 "$rc"
t_check "... and says nothing of lost packets" \
    sh -c "! grep -q 'lost' '$TMPDIR/trailer.err'"
t_expect_eq "... every block before it was written, exactly as in the whole file" \
    "$(head -c $((whole - 4)) "$TMPDIR/probe.pcap" | cksum)" "$(cksum <"$f")"
"$CHK" "$f" >"$TMPDIR/trailer.chk" 2>&1
chk=$?
t_expect_eq "... it reads to its end without an error" 0 "$chk"
t_check "... holding all $N packets" grep -qx "frames: $N" "$TMPDIR/trailer.chk"
t_done
