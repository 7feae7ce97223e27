#!/bin/sh
#
# A disk that fills before the ring of -C -W, or before --disk-budget,
# does: the files are there to keep the newest packets, so tcpdump
# deletes the oldest complete file of the run each time blocks find no
# space, until writing resumes, rather than wait for space that nobody
# will free.  tcpdump --writer-cpu=0 --compress=lz4 writes 30 MB of
# random (incompressible) frames to a 12 MiB tmpfs: with -C 2 -W 10
# (names for 20 MB); with -C 2 --disk-budget=100m; with -C 4 -W 10,
# where the disk holds fewer files than may be closing at once; and
# with -C 2 -W 3, which fits, until a filler file takes the rest of the
# disk after the names have come round, so that the file being written
# has a name that an earlier file of the run had.  What must hold:
# writing goes on to the end (the last frame sent is in a file); after
# the first stop the run's files are kept within what the disk held
# then, so that there are one or two stops, not one a file; tcpdump
# says how many files it deleted for lack of space, lists the stops,
# counts the packets lost in them and exits 1; every file left reads to
# its end, and together they hold frames each once, in increasing
# order; captured = written + dropped by writer + lost, sent = captured
# + dropped by kernel; and between the first frame left and the last,
# no more are missing than were lost or dropped (a file deleted while
# it was written, or one after it, would leave a larger gap).
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

# ring_case NAME FILL-AFTER MAX-STOPS ARGS...: one capture into a fresh
# 12 MiB tmpfs; FILL-AFTER seconds into it (- for never), a filler file
# takes the space left.  MAX-STOPS: at most that many stops for lack of
# space (- for any: where the disk holds two or three files, a file can
# outgrow the room kept for it, -C being checked against the bytes on
# disk, which lag behind).
ring_case() {
	name=$1
	fill_after=$2
	max_stops=$3
	shift 3
	mnt=$TMPDIR/$name
	mkdir "$mnt"
	if ! mount -t tmpfs -o size=12m "sluice-$name" "$mnt"; then
		t_fail "$name: mount a 12 MiB tmpfs"
		return
	fi
	start_tcpdump "$name" -s 2048 -B 16384 --writer-cpu=0 \
	    --compress=lz4 "$@" -w "$mnt/f"
	rx0=$(rx_count)
	netns_exec "$NS_A" "$GEN" --type random1518 --count $N --rate $RATE \
	    --iface "$VETH_A" 2>"$TMPDIR/gen.err" &
	gen=$!
	if [ "$fill_after" != - ]; then
		sleep "$fill_after"
		dd if=/dev/zero of="$mnt/zfill" bs=64k 2>/dev/null
	fi
	wait "$gen" || t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
	wait_rx "$rx0" $N || t_fail "the veth did not receive $N frames"
	netns_stop "$TD" INT 100
	err=$TMPDIR/$name.err
	sed "s/^/# $name: /" "$err"
	t_expect_eq "$name: tcpdump exits 1, as packets were lost" 1 \
	    "$NETNS_STATUS"
	t_check "$name: it says how many files it deleted for lack of space" \
	    grep -q '^[1-9][0-9]* files\{0,1\} deleted for lack of space$' "$err"
	stops=$(sed -n 's/^\([0-9]*\) stops\{0,1\} for lack of space (.*/\1/p' "$err")
	if [ "$max_stops" = - ]; then
		t_check "$name: ... and lists the stops ($stops)" \
		    test "${stops:-0}" -ge 1
	else
		t_check "$name: ... and lists the stops: $stops, at most $max_stops, as from the first on the files are kept within what the disk held" \
		    test "${stops:-0}" -ge 1 -a "${stops:-0}" -le "$max_stops"
	fi
	figures "$err"
	lost=$(figure "lost to write errors" "$err")
	echo "# summary: $name: $c captured, $w written, $d dropped by writer, ${lost:-?} lost, $k dropped by kernel"
	t_expect_eq "$name: captured ($c) = written ($w) + dropped by writer ($d) + lost (${lost:-?})" \
	    "$c" "$((w + d + ${lost:-0}))"
	t_expect_eq "$name: sent = captured + dropped by kernel" $N "$((c + k))"
	# Each file: "first last frames", or a line saying what is wrong.
	for f in "$mnt"/f*; do
		if "$CHK" "$f" >"$TMPDIR/chk.out" 2>&1 &&
		    grep -q '^out-of-order: 0$' "$TMPDIR/chk.out" &&
		    grep -q '^duplicates: 0$' "$TMPDIR/chk.out"; then
			sed -n 's/^frames: //p' "$TMPDIR/chk.out" |
			    grep -qx 0 && continue
			echo "$(sed -n 's/^first: //p' "$TMPDIR/chk.out") $(sed -n 's/^last: //p' "$TMPDIR/chk.out")"
		else
			echo "bad ${f##*/}"
		fi
	done | sort -n >"$TMPDIR/$name.ranges"
	sed "s/^/# $name ranges: /" "$TMPDIR/$name.ranges"
	t_check "$name: every file left reads to its end, in order, each frame once" \
	    awk '$1 == "bad" || (NR > 1 && $1 <= last) { exit 1 } { last = $2 }' \
	    "$TMPDIR/$name.ranges"
	t_expect_eq "$name: the newest packets are kept: the last frame sent is in a file" \
	    $((N - 1)) "$(tail -1 "$TMPDIR/$name.ranges" | cut -d' ' -f2)"
	first=$(head -1 "$TMPDIR/$name.ranges" | cut -d' ' -f1)
	total=0
	for f in "$mnt"/f*; do
		total=$((total + $(count_frames "$f")))
	done
	missing=$((N - ${first:-0} - total))
	t_check "$name: from frame ${first:-?} on, $missing are missing, no more than lost (${lost:-0}) and dropped ($d, $k)" \
	    test "$missing" -le "$((${lost:-0} + d + k))"
	umount "$mnt"
}

ring_case ring - 2 -C 2 -W 10
ring_case budget - 2 -C 2 --disk-budget=100m
ring_case few - - -C 4 -W 10
ring_case wrap 5 2 -C 2 -W 3
t_done
