#!/bin/sh
#
# Blocks compressed on more than one CPU (the compression helpers of
# libpcap/sf-compress-write.c):
#
# - tcpdump -r -w --compress --writer-ring runs one "pcap-writer" thread
#   and min(CPUs - 1, 3) "pcap-compress" helpers, which inherit the
#   writer's lowered priority (nice); pinned to one CPU (taskset), one,
#   which compresses while the writer waits in write().
# - For every codec at a fixed level, a savefile of many blocks (HTTP
#   frames, then random ones, then HTTP again, so that the adaptive skip
#   starts and ends) compresses to the same bytes with helpers, with one
#   helper taking turns with the writer on one CPU (taskset -c 0) and
#   without a writer thread at all, and reads back byte-identical to the
#   input, with every packet counted as written.  (At "auto" the levels follow the timings, so the bytes do
#   too: tests/adapt/t-levels.sh checks those files.)
# - ENOSPC on a small tmpfs with helpers running, which never frees up:
#   the stop is reported and listed, the exit status is 1, written + lost
#   = the packets read, and the file reads to its end and holds exactly
#   the packets written, whole blocks only.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"
need_cmd cmp
need_cmd taskset
build_traffic_tools

ncpu=$(taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' |
    awk -F- '{ n += NF == 2 ? $2 - $1 + 1 : 1 } END { print n }')
# one helper even on one CPU (sf-compress-write.c)
helpers=$((ncpu <= 1 ? 1 : ncpu - 1 > 3 ? 3 : ncpu - 1))

# The input: 25 MB of HTTP frames, 12 MB of random ones, 25 MB of HTTP,
# about 60 blocks of 1 MiB.
mix=$TMPDIR/mix.pcap
for part in "http 60000 1" "random1518 8000 2" "http 60000 3"; do
	# shellcheck disable=SC2086
	set -- $part
	if ! "$GEN" --type "$1" --count "$2" --seed "$3" \
	    --out "$TMPDIR/part$3.pcap" 2>"$TMPDIR/gen.err"; then
		t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
		t_done
	fi
done
{ cat "$TMPDIR/part1.pcap"; tail -c +25 "$TMPDIR/part2.pcap";
    tail -c +25 "$TMPDIR/part3.pcap"; } >"$mix"
N=128000
t_expect_eq "the input holds $N frames" $N "$(count_frames "$mix")"

# threads PID WANT FILE: wait (at most 5 s) until PID has WANT threads
# and has written to FILE, so that the writer has had records to
# compress, then print "name nice" for each thread, sorted.
threads() {
	_i=0
	while [ $_i -lt 100 ] && { [ ! -s "$3" ] ||
	    [ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -lt "$2" ]; }; do
		sleep 0.05
		_i=$((_i + 1))
	done
	for _t in /proc/"$1"/task/*; do
		echo "$(cat "$_t/comm") $(sed 's/.*) //' "$_t/stat" | cut -d' ' -f17)"
	done | sort
}

# tcpdump reading a pipe that delivers 4 MB of records, then stays open,
# so that the writer has started its helpers when we look.
mkfifo "$TMPDIR/fifo"
for pin in "" "taskset -c 0"; do
	rm -f "$TMPDIR/thr.pcap"
	$pin "$TCPDUMP" -r "$TMPDIR/fifo" -w "$TMPDIR/thr.pcap" --compress \
	    --writer-ring=1m 2>"$TMPDIR/thr.err" &
	pid=$!
	(head -c 4000000 "$mix"; sleep 10) >"$TMPDIR/fifo" &
	feeder=$!
	if [ -z "$pin" ]; then
		n=$helpers
		what="$ncpu CPUs"
	else
		n=1
		what="pinned to CPU 0"
	fi
	seen=$(threads $pid $((2 + n)) "$TMPDIR/thr.pcap")
	own=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f17)
	nice=$((own + 5 > 19 ? 19 : own + 5))
	want=$(i=0; while [ $i -lt $n ]; do echo "pcap-compress $nice";
	    i=$((i + 1)); done; echo "pcap-writer $nice"; echo "tcpdump $own")
	t_expect_eq "$what: threads tcpdump, pcap-writer and $n pcap-compress, helpers at the writer's nice" \
	    "$(echo "$want" | sort | tr '\n' ' ')" "$(echo "$seen" | tr '\n' ' ')"
	kill "$feeder" 2>/dev/null
	wait "$pid"
	wait "$feeder" 2>/dev/null
done

for c in zstd:-5 lz4:1 gzip:1 lzo; do
	if ! "$TCPDUMP" -r "$TMPDIR/part2.pcap" -c 1 -w "$TMPDIR/probe" \
	    --compress="$c" >/dev/null 2>&1; then
		t_skip "$c" "not built"
		continue
	fi
	for how in par seq now; do
		case $how in
		par) run= ; opt=--writer-ring=1m ;;
		seq) run="taskset -c 0" ; opt=--writer-ring=1m ;;
		now) run= ; opt= ;;
		esac
		# shellcheck disable=SC2086
		$run "$TCPDUMP" -r "$mix" -w "$TMPDIR/$how.$c" --compress="$c" \
		    $opt 2>"$TMPDIR/$how.err"
		echo $? >"$TMPDIR/$how.rc"
	done
	t_check "$c, helpers: exit 0, '$N packets written'" sh -c \
	    "[ \$(cat '$TMPDIR/par.rc') = 0 ] &&
	    grep -qx '$N packets written' '$TMPDIR/par.err'"
	t_check "$c: the same file with one helper taking turns on one CPU (taskset -c 0)" \
	    cmp "$TMPDIR/par.$c" "$TMPDIR/seq.$c"
	t_check "$c: the same file as without a writer thread" \
	    cmp "$TMPDIR/par.$c" "$TMPDIR/now.$c"
	rm -f "$TMPDIR/back.pcap"
	"$TCPDUMP" -r "$TMPDIR/par.$c" -w "$TMPDIR/back.pcap" 2>/dev/null
	t_check "$c: reads back byte-identical to the input" \
	    cmp "$mix" "$TMPDIR/back.pcap"
	rm -f "$TMPDIR/par.$c" "$TMPDIR/seq.$c" "$TMPDIR/now.$c"
done

# ENOSPC: random frames, which are stored, onto a 2 MiB tmpfs in a
# mount namespace of its own.
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	t_skip "ENOSPC with helpers" "needs root and unshare"
	t_done
fi
unshare -m --propagation private sh -c '
	mount -t tmpfs -o size=2m sluice-par "$1" || exit 99
	"$2" -r "$3" -w "$1/cap" --compress=lz4 --writer-ring=1m 2>"$4"
	echo $? >"$5"
	cp "$1/cap" "$6"' sh "$(mkdir "$TMPDIR/mnt" && echo "$TMPDIR/mnt")" \
    "$TCPDUMP" "$TMPDIR/part2.pcap" "$TMPDIR/full.err" "$TMPDIR/full.rc" \
    "$TMPDIR/full.cap"
sed 's/^/# stderr: /' "$TMPDIR/full.err"
t_expect_eq "ENOSPC: tcpdump exits 1" 1 "$(cat "$TMPDIR/full.rc")"
t_check "ENOSPC: tcpdump says writing stopped for lack of space, naming the file" \
    grep -q ": $TMPDIR/mnt/cap: No space left on device; packets are lost until there is space\$" \
    "$TMPDIR/full.err"
t_check "ENOSPC: ... and lists the stop, which lasted to the end" \
    grep -q '^1 stop for lack of space ([0-9:]* until the end)$' "$TMPDIR/full.err"
lost=$(sed -n 's/^\([0-9]*\) packets lost to write errors$/\1/p' "$TMPDIR/full.err")
w=$(sed -n 's/^\([0-9]*\) packets written$/\1/p' "$TMPDIR/full.err")
t_check "ENOSPC: reported with the packets lost ($lost) and written ($w)" \
    test -n "$lost" -a -n "$w"
t_expect_eq "ENOSPC: written + lost = the 8000 packets read" 8000 \
    "$((${w:-0} + ${lost:-0}))"
t_check "ENOSPC: some packets were written, some lost" \
    test "${w:-0}" -gt 0 -a "${lost:-0}" -gt 0
"$CHK" "$TMPDIR/full.cap" >"$TMPDIR/chk.out" 2>&1
t_check "ENOSPC: the file reads to its end, cut back to its last whole block" \
    "$CHK" "$TMPDIR/full.cap"
t_check "ENOSPC: the file holds exactly the $w packets written, in order" \
    sh -c "grep -q '^frames: $w\$' '$TMPDIR/chk.out' &&
        grep -q '^missing: 0\$' '$TMPDIR/chk.out' &&
        grep -q '^out-of-order: 0\$' '$TMPDIR/chk.out'"
t_done
