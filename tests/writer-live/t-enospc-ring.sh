#!/bin/sh
#
# A disk that fills before the ring of -C -W, or before --disk-budget,
# does: the files are there to keep the newest packets, so tcpdump
# deletes the oldest complete file of the run each time blocks find no
# space, until writing resumes, rather than wait for space that nobody
# will free.  tcpdump --writer-cpu=0 --compress=lz4 -C 2 writes 30 MB
# of random (incompressible) frames to a 12 MiB tmpfs, once with -W 10
# (names for 20 MB) and once with --disk-budget=100m.  What must hold:
# writing goes on to the end (the last frame sent is in a file); after
# the first stop the run's files are kept within what the disk held
# then, so that there are one or two stops, not one a file; tcpdump
# says how many files it deleted for lack of space, lists the stops,
# counts the packets lost in them and exits 1; every file left reads to
# its end, and together they hold frames each once, in increasing
# order; captured = written + dropped by writer + lost, sent = captured
# + dropped by kernel.
#
# The whole script runs in a private mount namespace (unshare -m), so
# the tmpfs goes away with it, however it ends.

if [ -z "${SLUICE_ENOSPC_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
    [ "$(id -u)" = 0 ]; then
	SLUICE_ENOSPC_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=20000		# 1514-byte frames, 30 MB, at 2000/s: 10 s
RATE=2000
netns_live_setup unshare mount
[ -n "${SLUICE_ENOSPC_NS:-}" ] || {
	t_fail "run in a private mount namespace (unshare -m)"
	t_done
}

# ring_case NAME ARGS...: one capture into a fresh 12 MiB tmpfs.
ring_case() {
	name=$1
	shift
	mnt=$TMPDIR/$name
	mkdir "$mnt"
	if ! mount -t tmpfs -o size=12m "sluice-$name" "$mnt"; then
		t_fail "$name: mount a 12 MiB tmpfs"
		return
	fi
	start_tcpdump "$name" -s 2048 -B 16384 --writer-cpu=0 \
	    --compress=lz4 -C 2 "$@" -w "$mnt/f"
	send_frames $N random1518 $RATE
	netns_stop "$TD" INT 100
	err=$TMPDIR/$name.err
	sed "s/^/# $name: /" "$err"
	t_expect_eq "$name: tcpdump exits 1, as packets were lost" 1 \
	    "$NETNS_STATUS"
	t_check "$name: it says how many files it deleted for lack of space" \
	    grep -q '^[1-9][0-9]* files\{0,1\} deleted for lack of space$' "$err"
	t_check "$name: ... and lists the stops: one, or two, as from the first on the files are kept within what the disk held" \
	    grep -q '^[12] stops\{0,1\} for lack of space (' "$err"
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
	umount "$mnt"
}

ring_case ring -W 10
ring_case budget --disk-budget=100m
t_done
