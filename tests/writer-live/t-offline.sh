#!/bin/sh
#
# The writer thread when tcpdump reads a savefile (-r) and when it runs
# at all, without a network:
#
# - Copying a savefile, the reading waits for room in the writer's ring
#   instead of dropping: a file of many times the ring, written through
#   the smallest ring tcpdump takes behind the slowest writer (gzip at
#   level 9), comes out byte-identical to the copy made without a
#   writer thread, with "0 packets dropped by writer".
# - The writer thread runs at nice +5 next to tcpdump's own nice value,
#   read from /proc/PID/task/*/stat while tcpdump waits for input on a
#   pipe.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp
build_traffic_tools

in=$TMPDIR/in.pcap
N=60000
if ! "$GEN" --type http --count $N --seed 11 --out "$in" 2>"$TMPDIR/gen.err"; then
	t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
	t_done
fi
"$TCPDUMP" -r "$in" -w "$TMPDIR/ref.pcap.gz" --compress=gzip:9 2>/dev/null
"$TCPDUMP" -r "$TMPDIR/ref.pcap.gz" -w "$TMPDIR/ref.pcap" 2>/dev/null
t_check "sluice-gen wrote $N frames, read back $N" \
    sh -c "[ \"\$('$TCPDUMP' -n -r '$in' 2>/dev/null | wc -l)\" = $N ]"

for c in "" --compress=gzip:9; do
	rm -f "$TMPDIR/out" "$TMPDIR/back.pcap"
	# shellcheck disable=SC2086
	"$TCPDUMP" -r "$in" -w "$TMPDIR/out" --writer-ring=64k $c \
	    2>"$TMPDIR/err"
	rc=$?
	"$TCPDUMP" -r "$TMPDIR/out" -w "$TMPDIR/back.pcap" 2>/dev/null
	t_check "-r, --writer-ring=64k ${c:-(plain)}: exit $rc, the same $(wc -c <"$in") bytes as without a writer" \
	    sh -c "[ $rc = 0 ] && cmp '$in' '$TMPDIR/back.pcap'"
	t_check "... '$N packets written', '0 packets dropped by writer (ring full)'" \
	    sh -c "grep -qx '$N packets written' '$TMPDIR/err' &&
	        grep -qx '0 packets dropped by writer (ring full)' '$TMPDIR/err'"
	# The ring was made large enough for the largest record.
	t_check "... the ring grew to 524288 bytes" \
	    grep -q '^ring high-water mark [1-9][0-9]* of 524288 bytes$' "$TMPDIR/err"
done

# tcpdump reading a pipe that stays open after the file header, so that
# it is still running, writer thread started, when we look at it.
head -c 24 "$in" >"$TMPDIR/hdr"
mkfifo "$TMPDIR/fifo"
"$TCPDUMP" -r "$TMPDIR/fifo" -w "$TMPDIR/nice.pcap" --writer-ring=1m \
    2>"$TMPDIR/nice.err" &
pid=$!
(cat "$TMPDIR/hdr"; sleep 10) >"$TMPDIR/fifo" &
feeder=$!
i=0
while [ $i -lt 100 ] &&
    [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 2 ]; do
	sleep 0.05
	i=$((i + 1))
done
# Field 19 of stat, counted after the ")" that ends the command name.
nices=$(for t in /proc/$pid/task/*/stat; do
	sed 's/.*) //' "$t" | cut -d' ' -f17
done | sort -n | tr '\n' ' ')
own=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f17)
want=$((own + 5 > 19 ? 19 : own + 5))
kill "$feeder" 2>/dev/null
wait "$pid"
rc=$?
wait "$feeder" 2>/dev/null
t_check "the writer thread runs at nice $want, tcpdump's thread at $own (saw: $nices)" \
    [ "$nices" = "$own $want " ]
t_check "... and tcpdump ends normally at the end of its input (exit $rc)" \
    [ $rc = 0 ]
t_done
