#!/bin/sh
#
# -G with a name that does not change from one interval to the next
# (no strftime(3) format) overwrites the previous file, as the manual
# says.  With a writer thread, the previous file may still be being
# finished on libpcap's closing thread when the rotation opens its name
# again; opening it then would truncate a file still being written, so
# tcpdump waits until that file is complete.  What must hold: the file
# left reads to its end, exit 0, and holds the last interval's frames
# each once, in order, up to the last frame sent; at most one file name
# exists; captured = written + dropped by writer.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=8000		# 1514-byte frames at 2000/s: 4 s, four intervals or more
netns_live_setup
D=$TMPDIR/d
mkdir "$D"
start_tcpdump td -s 2048 -B 16384 --writer-cpu=0 --compress=lz4 -G 1 \
    -w "$D/same"
send_frames $N random1518 2000
netns_stop "$TD" INT 100
t_expect_eq "tcpdump exits 0" 0 "$NETNS_STATUS"
sed 's/^/# stderr: /' "$TMPDIR/td.err"
figures "$TMPDIR/td.err"
t_expect_eq "captured ($c) = written ($w) + dropped by writer ($d)" \
    "$c" "$((w + d))"
t_expect_eq "one file name" "same" "$(ls "$D")"
"$CHK" "$D/same" >"$TMPDIR/chk.out" 2>&1
rc=$?
sed 's/^/# seqcheck: /' "$TMPDIR/chk.out"
t_expect_eq "the file reads to its end without an error" 0 "$rc"
t_check "... in order, each frame once" \
    sh -c "grep -q '^out-of-order: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^duplicates: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^missing: 0\$' '$TMPDIR/chk.out'"
t_check "... up to the last frame sent" \
    grep -q "^last: $((N - 1))\$" "$TMPDIR/chk.out"
t_check "... and not from the first: an earlier interval was overwritten" \
    sh -c "! grep -q '^first: 0\$' '$TMPDIR/chk.out'"
t_done
