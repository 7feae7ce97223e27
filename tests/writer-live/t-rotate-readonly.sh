#!/bin/sh
#
# A file that a rotation cannot open, for a reason that may pass, is an
# episode, not the end.  tcpdump --writer-cpu=0 --compress=lz4 -C 1
# writes random frames at a steady rate into a directory; after a few
# rotations a read-only tmpfs is mounted over the directory, so that
# the next file cannot be created (EROFS) while the file being written
# stays open on the file system below; 2 s later it is unmounted.
# tcpdump must say, when it happens, that the file cannot be opened
# (file, error, packets lost) and that it is writing again; go on
# capturing; list the stop in its figures and count the packets lost;
# exit 1, as it lost some; and leave files that each read to their
# end, in order, holding exactly the packets written: captured =
# written + dropped by writer + lost, sent = captured + dropped by
# kernel.
#
# The whole script runs in a private mount namespace (mount-ns.sh), so
# the mounts go away with it, however it ends.

. "$SLUICE_SRCDIR/tests/writer-live/mount-ns.sh"
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=20000		# 1514-byte frames, 30 MB, at 2000/s: 10 s, 30 files
RATE=2000
netns_live_setup unshare mount
mount_ns_check
D=$TMPDIR/d
mkdir "$D"
# tcpdump runs in a mount namespace of its own (ip netns exec), a copy
# of this one taken when it starts, which receives later mounts on D
# only if D is a shared mount.
if ! mount --bind "$D" "$D" || ! mount --make-shared "$D"; then
	t_fail "make $D a shared mount"
	t_done
fi

start_tcpdump td -s 2048 -B 16384 --writer-cpu=0 --compress=lz4 -C 1 \
    -w "$D/f"
netns_exec "$NS_A" "$GEN" --type random1518 --count $N --rate $RATE \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" &
gen=$!
i=0
while [ $i -lt 100 ] && [ ! -e "$D/f2" ]; do
	sleep 0.05
	i=$((i + 1))
done
t_check "tcpdump rotates (f2 exists within 5 s)" test -e "$D/f2"
if ! mount -t tmpfs -o ro,size=1m sluice-readonly "$D"; then
	t_fail "mount a read-only tmpfs over the directory"
	t_done
fi
stopped="^tcpdump: $D/f[0-9]*: Read-only file system; packets are lost until the file can be opened\$"
if netns_wait_for "$TMPDIR/td.err" "$stopped" 80; then
	t_ok "tcpdump says at once that the next file cannot be opened: the file, the error, packets lost"
else
	t_fail "no line saying that a file cannot be opened within 8 s"
fi
sleep 2
umount "$D" || t_fail "unmount the read-only tmpfs"
resumed="^tcpdump: $D/f[0-9]*: writing again\$"
if netns_wait_for "$TMPDIR/td.err" "$resumed" 50; then
	t_ok "tcpdump says within 5 s that it is writing again"
else
	t_fail "no line saying that writing resumed within 5 s"
fi
wait "$gen" || t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
wait_rx 0 $N || t_fail "the veth did not receive $N frames"
netns_stop "$TD" INT 100
t_expect_eq "tcpdump exits 1, as packets were lost" 1 "$NETNS_STATUS"
sed 's/^/# stderr: /' "$TMPDIR/td.err"
stop_file=$(sed -n "s/^tcpdump: \(.*\): Read-only file system; .*/\1/p" \
    "$TMPDIR/td.err")
resume_file=$(sed -n 's/^tcpdump: \(.*\): writing again$/\1/p' "$TMPDIR/td.err")
t_check "the stop is said once ($stop_file), and writing resumes in that file ($resume_file)" \
    test -n "$stop_file" -a "$stop_file" = "$resume_file"
t_check "the figures list the stop and how long it lasted" \
    grep -q '^1 stop with no file open ([0-9:]* for [0-9]* s)$' "$TMPDIR/td.err"
figures "$TMPDIR/td.err"
lost=$(figure "lost while no file could be opened" "$TMPDIR/td.err")
wlost=$(figure "lost to write errors" "$TMPDIR/td.err")
echo "# summary: $c captured, $w written, $d dropped by writer, ${lost:-?} lost with no file, $k dropped by kernel"
t_check "packets were lost while there was no file" test "${lost:-0}" -gt 0
t_expect_eq "no packet was lost to a write error" "" "$wlost"
t_expect_eq "captured ($c) = written ($w) + dropped by writer ($d) + lost (${lost:-?})" \
    "$c" "$((w + d + ${lost:-0}))"
t_expect_eq "sent = captured + dropped by kernel" $N "$((c + k))"

# Every file reads to its end; together, in order, they hold the
# packets written, each once, in increasing order; the gap at the stop
# is the packets lost (when no other packet went missing).
total=0
prev_last=-1
bad=
gap=
for f in $(cd "$D" && ls | sort -V); do
	"$CHK" "$D/$f" >"$TMPDIR/chk.out" 2>&1 || bad="$bad $f(exit $?)"
	n=$(sed -n 's/^frames: //p' "$TMPDIR/chk.out")
	[ "${n:-0}" = 0 ] && continue
	first=$(sed -n 's/^first: //p' "$TMPDIR/chk.out")
	last=$(sed -n 's/^last: //p' "$TMPDIR/chk.out")
	grep -q '^out-of-order: 0$' "$TMPDIR/chk.out" &&
	    grep -q '^duplicates: 0$' "$TMPDIR/chk.out" &&
	    [ "$first" -gt "$prev_last" ] || bad="$bad $f(order)"
	[ "$D/$f" = "$stop_file" ] && gap=$((first - prev_last - 1))
	total=$((total + n))
	prev_last=$last
done
t_expect_eq "every file reads to its end, in order, each frame once" "" "$bad"
t_expect_eq "the files hold exactly the $w packets written" "$w" "$total"
if [ "$((d + k))" = 0 ]; then
	t_expect_eq "the frames missing before $stop_file are the ${lost:-?} lost" \
	    "${lost:-0}" "$gap"
else
	t_skip "the gap at the stop: other packets went missing too ($d, $k)"
fi
t_done
