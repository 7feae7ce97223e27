#!/bin/sh
#
# tcpdump's savefile on the paths that are not the plain end of a
# capture, with a writer thread and --compress (which holds the last
# block until the dumper is flushed or closed):
#  - SIGUSR2 after -C rotations flushes the current file (the handler
#    used to flush the first dumper, freed by then, from the signal
#    handler): once the next packet arrives, the files on disk hold
#    every frame so far, while tcpdump goes on capturing;
#  - error() at a -C file switch (the next file cannot be opened): exit
#    status 1, and the file before it is complete, holding every frame
#    written, because exit_tcpdump() finishes what the rotation handed
#    to libpcap's closing thread.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup

# frames_in DIR: frames in all files of DIR together.
frames_in() {
	_fi_n=0
	for _fi_f in "$1"/*; do
		_fi_n=$((_fi_n + $(count_frames "$_fi_f")))
	done
	echo "$_fi_n"
}

# 1. SIGUSR2 after rotations.  --print -l shows when tcpdump has taken
# a packet; the flag the signal sets is acted on at the next packet.
N=3000
mkdir "$TMPDIR/u"
start_tcpdump u -s 2048 -B 16384 --writer-ring=4m --compress=zstd -C 1 \
    --print -l -q -w "$TMPDIR/u/f"
send_frames $N random1518
wait_lines "$TMPDIR/u.out" $N || t_fail "SIGUSR2: tcpdump did not take $N frames"
kill -USR2 "$TD"
sleep 0.2
netns_exec "$NS_A" "$GEN" --type random1518 --count 1 --seq-start $N \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
wait_lines "$TMPDIR/u.out" $((N + 1)) || t_fail "SIGUSR2: no frame $((N + 1))"
i=0
while [ $i -lt 100 ] && [ "$(frames_in "$TMPDIR/u")" -lt $((N + 1)) ]; do
	sleep 0.1
	i=$((i + 1))
done
t_check "SIGUSR2: tcpdump is still capturing" kill -0 "$TD"
# shellcheck disable=SC2046 # file names are ours, without blanks
t_check "SIGUSR2: the files on disk hold all $((N + 1)) frames, in order" \
    check_in_order "$TMPDIR/u" $((N + 1)) $(cd "$TMPDIR/u" && ls | sort -V)
netns_stop "$TD" INT 100
t_expect_eq "SIGUSR2: tcpdump exits 0 at SIGINT" 0 "$NETNS_STATUS"

# 2. error() at a -C switch: the next file's name is a directory.
mkdir "$TMPDIR/e" "$TMPDIR/e/f1"
start_tcpdump e -s 2048 -B 16384 --writer-cpu=0 --compress=lz4 -C 1 \
    -w "$TMPDIR/e/f"
send_frames 2000 random1518
netns_stop "$TD" INT 100
t_expect_eq "error() at a -C switch: exit status 1" 1 "$NETNS_STATUS"
t_check "... saying which file it could not open" \
    grep -q "^tcpdump: $TMPDIR/e/f1: Is a directory\$" "$TMPDIR/e.err"
w=$(figure written "$TMPDIR/e.err")
t_check "... the writer's figures are printed ($w written)" \
    test -n "$w" -a "${w:-0}" -ge 600
t_check "... and f holds frames 0..$((w - 1)), in order" \
    check_in_order "$TMPDIR/e" "$w" f
figures "$TMPDIR/e.err"
t_check "... with the captured and kernel figures ($c, $k)" \
    test -n "$c" -a -n "$k"
t_expect_eq "... captured = written ($w) + dropped by writer ($d)" \
    "$c" "$((w + ${d:-0}))"

# 3. The -W limit of -G ends the capture at the packet that finds the
# last interval over, which no file holds: it is not captured, so that
# captured = written + dropped, to the packet.
mkdir "$TMPDIR/g"
start_tcpdump g -s 2048 -B 16384 --writer-cpu=0 -G 1 -W 2 \
    -w "$TMPDIR/g/f%s"
netns_exec "$NS_A" "$GEN" --type http --count 12000 --rate 3000 \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" &
gen=$!
netns_wait_for "$TMPDIR/g.err" "^Maximum file limit reached: 2\$" 60 ||
    t_fail "-G 1 -W 2: no limit reached within 6 s"
wait "$gen"
netns_stop "$TD" INT 100
t_expect_eq "-G 1 -W 2: tcpdump exits 0 at the limit" 0 "$NETNS_STATUS"
sed 's/^/# g: /' "$TMPDIR/g.err"
figures "$TMPDIR/g.err"
t_expect_eq "-G 1 -W 2: captured = written ($w) + dropped by writer ($d)" \
    "$c" "$((${w:-0} + ${d:-0}))"
# shellcheck disable=SC2046 # file names are ours, without blanks
t_expect_eq "-G 1 -W 2: the two files hold the $w packets written" "$w" \
    "$(n=0; for f in $(ls "$TMPDIR/g"); do
        n=$((n + $(count_frames "$TMPDIR/g/$f"))); done; echo $n)"
t_done
