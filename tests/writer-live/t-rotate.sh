#!/bin/sh
#
# File rotation with a writer thread, live on a veth pair.  The old
# file is finished by libpcap's closing thread while the capture goes on
# into the next one (pcap_dump_close_async()); what must hold:
#  - -C with --writer-cpu and --compress: the files, in order, hold
#    every frame sent, once and in order; -z ran once on each file, the
#    last one too, and each time on the complete file (the copy -z made
#    is identical to the file);
#  - -C with -W 2 (names reused): every file -z was given, whichever name
#    it had, is complete, and together they hold every frame once;
#  - -G with --writer-ring: the same as the first, over time;
#  - -G with -W: tcpdump stops by itself after the last file, and that
#    file is complete too (the exit path finishes it).

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup

# The -z command: copy the file it is given to a name of its own, and
# log the name.
zcmd=$TMPDIR/zcopy.sh
cat >"$zcmd" <<EOS
#!/bin/sh
c=\$(mktemp "\$1.z.XXXXXX") && cp "\$1" "\$c" && echo "\$1 \$c" >>"$TMPDIR/z.log"
EOS
chmod +x "$zcmd"

# check_z DIR NFILES: -z ran once on each of the NFILES files in DIR,
# each time on the finished file.
check_z() {
	wait_lines "$TMPDIR/z.log" "$2" || true
	_cz_bad=
	# shellcheck disable=SC2034 # name is only a placeholder
	while read -r _cz_f _cz_c; do
		cmp -s "$_cz_f" "$_cz_c" || _cz_bad="$_cz_bad $_cz_f"
	done <"$TMPDIR/z.log"
	[ -z "$_cz_bad" ] || echo "# -z saw an unfinished file:$_cz_bad" >&2
	[ -z "$_cz_bad" ] &&
	    [ "$(cut -d' ' -f1 "$TMPDIR/z.log" | sort -u | wc -l)" = "$2" ] &&
	    [ "$(wc -l <"$TMPDIR/z.log")" = "$2" ]
}

# files DIR: the capture files in DIR, in rotation order.
files() {
	(cd "$1" && ls | grep -v '\.z\.' | sort -V)
}

# 1. -C, compressed, pinned writer, -z.
N=5000
mkdir "$TMPDIR/c"
: >"$TMPDIR/z.log"
start_tcpdump c -s 2048 -B 16384 --writer-cpu=0 --compress=zstd -C 1 \
    -W 50 -z "$zcmd" -w "$TMPDIR/c/f"
send_frames $N random1518
netns_stop "$TD" INT 100
t_expect_eq "-C 1 --compress: tcpdump exits 0" 0 "$NETNS_STATUS"
nf=$(files "$TMPDIR/c" | wc -l)
# -C counts bytes on disk: how many files 7.6 MB make depends on how far
# the writer is behind when the capture stops (the rest goes into the
# last file), so a slow machine (sanitizers, load) makes fewer.  Two
# show that it rotated.
t_check "-C 1 --compress: several files ($nf)" test "$nf" -ge 2
t_expect_eq "-C 1 --compress: $N written, summed over the files" $N \
    "$(figure written "$TMPDIR/c.err")"
# shellcheck disable=SC2046 # file names are ours, without blanks
t_check "-C 1 --compress: the files hold frames 0..$((N - 1)), in order, once each" \
    check_in_order "$TMPDIR/c" $N $(files "$TMPDIR/c")
t_check "-C 1 --compress: -z ran once on each of the $nf files, the last too, each complete" \
    check_z "$TMPDIR/c" "$nf"

# 2. -C with -W 2: names come round again while files are finished.
# tcpdump does not wait for -z commands (stock does not either), so a
# -z still reading a file when its name comes round again would see the
# next file: here -z renames the file, which is over at once, and
# frames come slowly enough (a file every ~0.7 s) for it to have run;
# at 0.35 s, under sanitizers on a loaded machine, it sometimes had not.
zmove=$TMPDIR/zmove.sh
cat >"$zmove" <<EOS
#!/bin/sh
c=\$(mktemp "\$1.z.XXXXXX") && mv "\$1" "\$c" && echo "\$1 \$c" >>"$TMPDIR/z.log"
EOS
chmod +x "$zmove"
mkdir "$TMPDIR/w"
: >"$TMPDIR/z.log"
start_tcpdump w -s 2048 -B 16384 --writer-ring=4m -C 1 -W 2 -z "$zmove" \
    -w "$TMPDIR/w/f"
send_frames $N random1518 1000
netns_stop "$TD" INT 100
t_expect_eq "-C 1 -W 2: tcpdump exits 0" 0 "$NETNS_STATUS"
nz=$(wc -l <"$TMPDIR/z.log")
t_check "-C 1 -W 2: names were reused (-z ran $nz times so far)" \
    wait_lines "$TMPDIR/z.log" 4
# Each copy -z made is a run of frames; ordered by their first frame,
# the runs must tile 0..N-1.  tcpdump does not wait for its -z
# children, so the last copies may still be on their way when it has
# exited: look again, for at most 10 s, until they are all there.
tiled() {
	for c in $(cut -d' ' -f2 "$TMPDIR/z.log"); do
		echo "$("$CHK" "$c" | sed -n 's/^first: //p') $(basename "$c")"
	done | sort -n | cut -d' ' -f2 >"$TMPDIR/w.order"
	# shellcheck disable=SC2046 # file names are ours, without blanks
	check_in_order "$TMPDIR/w" $N $(cat "$TMPDIR/w.order")
}
i=0
while [ $i -lt 100 ] && ! tiled 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
nz=$(wc -l <"$TMPDIR/z.log")
t_check "-C 1 -W 2: the $nz files -z was given hold frames 0..$((N - 1)), once each" \
    tiled

# 3. -G 1: a new file every second, over three seconds.
mkdir "$TMPDIR/g"
: >"$TMPDIR/z.log"
N=15000
start_tcpdump g -s 2048 -B 16384 --writer-ring=8m -G 1 -z "$zcmd" \
    -w "$TMPDIR/g/f-%s"
rx0=$(rx_count)
netns_exec "$NS_A" "$GEN" --type http --count $N --rate 5000 \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
wait_rx "$rx0" $N || t_fail "the veth did not receive $N frames"
netns_stop "$TD" INT 100
t_expect_eq "-G 1: tcpdump exits 0" 0 "$NETNS_STATUS"
nf=$(files "$TMPDIR/g" | wc -l)
t_check "-G 1: several files ($nf)" test "$nf" -ge 2
t_expect_eq "-G 1: $N written" $N "$(figure written "$TMPDIR/g.err")"
# shellcheck disable=SC2046 # file names are ours, without blanks
t_check "-G 1: the files hold frames 0..$((N - 1)), in order, once each" \
    check_in_order "$TMPDIR/g" $N $(files "$TMPDIR/g")
t_check "-G 1: -z ran once on each of the $nf files, each complete" \
    check_z "$TMPDIR/g" "$nf"

# 4. -G 1 -W 2: tcpdump exits by itself at the third file switch.
mkdir "$TMPDIR/gw"
: >"$TMPDIR/z.log"
start_tcpdump gw -s 2048 -B 16384 --writer-cpu=0 --compress=lz4 -G 1 -W 2 \
    -z "$zcmd" -w "$TMPDIR/gw/f-%s"
netns_exec "$NS_A" "$GEN" --type http --count $N --rate 5000 \
    --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
netns_stop "$TD" INT 100
t_expect_eq "-G 1 -W 2: tcpdump exited by itself, status 0" 0 "$NETNS_STATUS"
t_check "-G 1 -W 2: it says why" \
    grep -q '^Maximum file limit reached: 2$' "$TMPDIR/gw.err"
w=$(figure written "$TMPDIR/gw.err")
nf=$(files "$TMPDIR/gw" | wc -l)
t_expect_eq "-G 1 -W 2: two files" 2 "$nf"
# shellcheck disable=SC2046 # file names are ours, without blanks
t_check "-G 1 -W 2: they hold the $w frames written, 0..$((w - 1)), in order" \
    check_in_order "$TMPDIR/gw" "$w" $(files "$TMPDIR/gw")
t_check "-G 1 -W 2: -z ran on both, each complete" check_z "$TMPDIR/gw" 2
t_done
