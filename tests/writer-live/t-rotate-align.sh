#!/bin/sh
#
# Rotation that keeps its promises.
# 1. -G 2 --align-rotation: every file is named after the start of an
#    even second since the epoch and holds exactly the packets whose time
#    stamps fall in [start, start + 2), also when the packets come in
#    bursts with quiet intervals between them (which get no file; the
#    interval the capture starts in has one, empty if its first packet
#    comes later, as under a slow sanitizer build); the files together
#    hold every packet written, in order.
# 2. -G with -C and -W: -W only sets the digits of the count, as the
#    manual says: no file of an interval is overwritten, so the files
#    hold every packet written.
# 3. --align-rotation without -G is refused in one sentence.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup

# burst FROM N: send frames FROM..FROM+N-1 at 2000/s.
burst() {
	netns_exec "$NS_A" "$GEN" --type http --count "$2" --seq-start "$1" \
	    --rate 2000 --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
	    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
}

# 1. Bursts of 1.5 s with 4 s of quiet between them (each gap holds a
# whole interval): 3 bursts, 9000 frames, over about 13 s.
mkdir "$TMPDIR/a"
start_tcpdump a -s 2048 -B 16384 -G 2 --align-rotation -w "$TMPDIR/a/f%s"
burst 0 3000
sleep 4
burst 3000 3000
sleep 4
burst 6000 3000
wait_rx 0 9000 || t_fail "the veth did not receive 9000 frames"
netns_stop "$TD" INT 100
t_expect_eq "aligned: tcpdump exits 0" 0 "$NETNS_STATUS"
figures "$TMPDIR/a.err"
bad=
total=0
files=0
first=
for f in $(cd "$TMPDIR/a" && ls | sort -V); do
	start=${f#f}
	first=${first:-$start}
	files=$((files + 1))
	if [ $((start % 2)) != 0 ]; then
		bad="$bad $f:not-aligned"
		continue
	fi
	# Seconds of the first and last time stamps in the file.
	"$TCPDUMP" -tt -n -r "$TMPDIR/a/$f" 2>/dev/null | cut -d. -f1 \
	    >"$TMPDIR/ts"
	n=$(wc -l <"$TMPDIR/ts")
	total=$((total + n))
	# The file the capture starts in is empty when the first packet
	# comes in a later interval, as tcpdump(1) says; no other is.
	[ "$n" = 0 ] && [ "$files" = 1 ] && continue
	lo=$(sort -n "$TMPDIR/ts" | head -1)
	hi=$(sort -n "$TMPDIR/ts" | tail -1)
	if [ "$n" = 0 ] || [ "$lo" -lt "$start" ] ||
	    [ "$hi" -ge $((start + 2)) ]; then
		bad="$bad $f:$n:$lo-$hi"
	fi
done
echo "# aligned: $files files, $total frames, $c captured, $w written"
t_expect_eq "aligned: every file is named after an even second and holds only its interval" \
    "" "$bad"
intervals=$(( (start - first) / 2 + 1 ))
t_check "aligned: quiet intervals get no file ($files files for $intervals intervals)" \
    test "$files" -ge 3 -a "$files" -le $((intervals - 2))
t_expect_eq "aligned: the files hold every packet written ($w)" "$w" "$total"
t_expect_eq "aligned: written + dropped = captured" "$c" "$((w + d))"
# shellcheck disable=SC2046 # file names are ours, without blanks
t_check "aligned: the files hold frames 0..8999 in order" \
    check_in_order "$TMPDIR/a" 9000 $(cd "$TMPDIR/a" && ls | sort -V)

# 2. -G 5 -C 1 -W 2: about 6 MB in one or two intervals, so several
# files per interval; none may be overwritten.
mkdir "$TMPDIR/c"
start_tcpdump c -s 2048 -B 16384 -G 5 -C 1 -W 2 -w "$TMPDIR/c/f%s."
send_frames 4000 random1518 2000
netns_stop "$TD" INT 100
t_expect_eq "-G -C -W: tcpdump exits 0" 0 "$NETNS_STATUS"
figures "$TMPDIR/c.err"
n=$(ls "$TMPDIR/c" | wc -l)
total=0
for f in "$TMPDIR"/c/*; do
	total=$((total + $(count_frames "$f")))
done
echo "# -G -C -W: $n files, $total frames, $w written"
t_check "-G -C -W: more files than -W ($n)" test "$n" -gt 2
t_expect_eq "-G -C -W: no file was overwritten: the files hold all $w packets written" \
    "$w" "$total"

# 3. A refusal.
out=$("$TCPDUMP" --align-rotation -r /dev/null -w "$TMPDIR/x" 2>&1)
t_expect_eq "--align-rotation without -G: exit 1, one sentence" \
    "1 tcpdump: --align-rotation cannot be used without -G." "$? $out"
t_done
