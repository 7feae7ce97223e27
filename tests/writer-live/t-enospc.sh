#!/bin/sh
#
# A full disk is an episode, not the end.  tcpdump --writer-cpu=0
# --compress=lz4 writes random (incompressible) frames, at a steady
# rate, to a tmpfs that a filler file leaves about 2 MB of; once tcpdump
# says the disk is full, the filler is removed.  tcpdump must say, when
# it happens, that writing stopped (file, error, packets lost) and that
# it resumed; go on capturing; list the stop in its figures and count
# the packets lost; exit 1, as it lost some; and leave a file that
# reads to its end with
# exactly the packets written, in order, the lost ones missing: sent =
# in the file + dropped by writer + lost + dropped by kernel.
#
# The whole script runs in a private mount namespace (mount-ns.sh), so
# the tmpfs goes away with it, however it ends.

. "$SLUICE_SRCDIR/tests/writer-live/mount-ns.sh"
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=20000		# 1514-byte frames, 30 MB, at 2000/s: 10 s
RATE=2000
netns_live_setup unshare mount
mount_ns_check
mnt=$TMPDIR/mnt
mkdir "$mnt"
if ! mount -t tmpfs -o size=64m sluice-enospc "$mnt"; then
	t_fail "mount a 64 MiB tmpfs"
	t_done
fi
dd if=/dev/zero of="$mnt/filler" bs=1M count=62 2>/dev/null
f=$mnt/cap.pcap

start_tcpdump td -s 2048 -B 16384 --writer-cpu=0 --compress=lz4 -w "$f"
netns_exec "$NS_A" "$GEN" --type random1518 --count $N --rate $RATE \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" &
gen=$!
stopped="^tcpdump: $f: No space left on device; packets are lost until there is space\$"
if netns_wait_for "$TMPDIR/td.err" "$stopped" 80; then
	t_ok "tcpdump says at once that writing stopped: the file, the error, packets lost"
else
	t_fail "no line saying that writing stopped within 8 s"
fi
stop_size=$(stat -c %s "$f")
sleep 1
t_expect_eq "the file does not grow while there is no space" \
    "$stop_size" "$(stat -c %s "$f")"
rm -f "$mnt/filler"
if netns_wait_for "$TMPDIR/td.err" "^tcpdump: $f: writing again\$" 50; then
	t_ok "tcpdump says at once that writing resumed"
else
	t_fail "no line saying that writing resumed within 5 s of freeing space"
fi
wait "$gen" || t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
wait_rx 0 $N || t_fail "the veth did not receive $N frames"
netns_stop "$TD" INT 100
t_expect_eq "tcpdump exits 1, as packets were lost" 1 "$NETNS_STATUS"
sed 's/^/# stderr: /' "$TMPDIR/td.err"
stop_at=$(grep -n "$stopped" "$TMPDIR/td.err" | cut -d: -f1)
resume_at=$(grep -n "^tcpdump: $f: writing again\$" "$TMPDIR/td.err" | cut -d: -f1)
t_check "the stop line ($stop_at) comes once, before the resume line ($resume_at)" \
    test "$(echo $stop_at)" -lt "$(echo $resume_at)"
t_check "the figures list the stop and how long it lasted" \
    grep -q '^1 stop for lack of space ([0-9:]* for [0-9]* s)$' "$TMPDIR/td.err"
figures "$TMPDIR/td.err"
lost=$(figure "lost to write errors" "$TMPDIR/td.err")
echo "# summary: $c captured, $w written, $d dropped by writer, ${lost:-?} lost, $k dropped by kernel"
t_check "packets were lost while the disk was full" test "${lost:-0}" -gt 0
t_expect_eq "captured ($c) = written ($w) + dropped by writer ($d) + lost (${lost:-?})" \
    "$c" "$((w + d + ${lost:-0}))"
t_expect_eq "sent = captured + dropped by kernel" $N "$((c + k))"
"$CHK" "$f" >"$TMPDIR/chk.out" 2>&1
chk=$?
sed 's/^/# seqcheck: /' "$TMPDIR/chk.out"
t_expect_eq "the file reads to its end without an error" 0 "$chk"
t_check "the file holds exactly the $w packets written" \
    grep -q "^frames: $w\$" "$TMPDIR/chk.out"
t_check "... in order, the first and the last sent among them" \
    sh -c "grep -q '^out-of-order: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^duplicates: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^first: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^last: $((N - 1))\$' '$TMPDIR/chk.out'"
t_check "... and the missing ones are those reported: dropped by writer ($d), lost (${lost:-?}) and by the kernel ($k)" \
    grep -q "^missing: $((d + ${lost:-0} + k))\$" "$TMPDIR/chk.out"

# Room for the file header's small block and no more: the header stays
# though every block after it is lost, so the file reads, empty.
small=$TMPDIR/small
mkdir "$small"
if mount -t tmpfs -o size=64k sluice-enospc-small "$small"; then
	dd if=/dev/zero of="$small/filler" bs=4k count=15 2>/dev/null
	"$GEN" --type random1518 --count 2000 --out "$TMPDIR/r.pcap" 2>/dev/null
	"$TCPDUMP" -r "$TMPDIR/r.pcap" -w "$small/h.pcap" --compress=zstd \
	    2>"$TMPDIR/h.err"
	rc=$?
	sed 's/^/# small: /' "$TMPDIR/h.err"
	t_expect_eq "almost no room: exit 1, the packets lost" 1 "$rc"
	t_check "... the file keeps its header ($(stat -c %s "$small/h.pcap") bytes)" \
	    test -s "$small/h.pcap"
	out=$("$TCPDUMP" -r "$small/h.pcap" 2>&1)
	t_expect_eq "... and reads, with no packet, exit 0" \
	    "0 reading from file $small/h.pcap, link-type EN10MB (Ethernet), snapshot length 262144" \
	    "$? $out"
else
	t_fail "mount a 64 KiB tmpfs"
fi
t_done
