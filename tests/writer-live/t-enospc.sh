#!/bin/sh
#
# A full disk under a writer thread: tcpdump --writer-cpu=0
# --compress=lz4 writes random (incompressible) frames to a 1 MiB tmpfs,
# mounted in a private mount namespace (unshare -m), which goes away
# with tcpdump.  The write error is reported with the number of packets
# lost, the statistics are still printed, the exit status is 1, every
# packet is accounted for (captured = written + dropped by writer +
# lost), and the file holds exactly the packets written, in order.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=3000		# 1514-byte frames: 4.5 MB
netns_live_setup unshare mount nsenter
mnt=$TMPDIR/mnt
mkdir "$mnt"

# unshare and sh exec, so the pid netns_bg records is tcpdump's; the
# tmpfs lives as long as tcpdump's mount namespace does.
netns_bg "$NS_B" "$TMPDIR/td.out" "$TMPDIR/td.err" \
    unshare -m --propagation private sh -c \
    'mount -t tmpfs -o size=1m sluice-enospc "$0" &&
        cp /dev/null "$0/ready" && exec "$@"' "$mnt" \
    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 16384 --writer-cpu=0 \
    --compress=lz4 -w "$mnt/cap.pcap"
td=$NETNS_BG_PID
if ! netns_wait_for "$TMPDIR/td.err" "listening on" 100; then
	t_fail "tcpdump did not start: $(head -3 "$TMPDIR/td.err")"
	t_done
fi
t_check "the tmpfs is private to tcpdump" test ! -e "$mnt/ready"
send_frames $N random1518
# Keep the file: copy it out of tcpdump's namespace before it ends, once
# the writer has stopped writing (after the error it writes nothing).
i=0
size=-1
while [ $i -lt 50 ]; do
	now=$(nsenter -t "$td" -m stat -c %s "$mnt/cap.pcap" 2>/dev/null)
	[ "$now" = "$size" ] && break
	size=$now
	sleep 0.2
	i=$((i + 1))
done
if ! nsenter -t "$td" -m cp "$mnt/cap.pcap" "$TMPDIR/cap.pcap" 2>/dev/null; then
	t_fail "copy the file out of tcpdump's mount namespace"
fi
netns_stop "$td" INT 100
t_expect_eq "tcpdump exits 1" 1 "$NETNS_STATUS"
sed 's/^/# stderr: /' "$TMPDIR/td.err"
t_check "the error names the file and ENOSPC, and counts packets lost" \
    grep -q "^tcpdump: $mnt/cap.pcap: error writing compressed savefile: No space left on device ([0-9]* packets lost)\$" \
    "$TMPDIR/td.err"
lost=$(sed -n 's/.*No space left on device (\([0-9]*\) packets lost)$/\1/p' "$TMPDIR/td.err")
figures "$TMPDIR/td.err"
echo "# summary: ENOSPC on a 1 MiB tmpfs: $c captured, $w written, $d dropped by writer, $lost lost, $k dropped by kernel"
t_check "the statistics are printed after the error" \
    test -n "$w" -a -n "$d" -a -n "$c" -a -n "$lost"
t_expect_eq "captured ($c) = written ($w) + dropped by writer ($d) + lost ($lost)" \
    "$c" "$((w + d + lost))"
t_expect_eq "sent = captured + dropped by kernel" $N "$((c + k))"
t_check "packets were written before the disk filled" test "${w:-0}" -gt 0
# The block being written when the disk filled is cut: readers get every
# whole block, then a clear "truncated" error.
"$CHK" "$TMPDIR/cap.pcap" >"$TMPDIR/chk.out" 2>&1
t_check "the file holds exactly the $w packets written, in order" \
    grep -q "^frames: $w\$" "$TMPDIR/chk.out"
t_check "... frames 0..$((w - 1)), none missing or out of order" \
    sh -c "grep -q '^first: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^last: $((w - 1))\$' '$TMPDIR/chk.out' &&
        grep -q '^missing: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^out-of-order: 0\$' '$TMPDIR/chk.out'"
t_check "... followed by the cut block, reported as truncated" \
    grep -q "truncated lz4 compressed file" "$TMPDIR/chk.out"
t_check "the tmpfs went away with tcpdump" \
    sh -c "! grep -q sluice-enospc /proc/mounts"
t_done
