#!/bin/sh
#
# A disk that fails under the writer thread, through an LD_PRELOAD shim
# (failwrite.c): write() fails with EIO after the first few blocks, or
# every write() is short.  With EIO, tcpdump reports the error with the
# packets lost, still prints its figures, exits 1, every packet is
# accounted for (captured = written + dropped by writer + lost), and the
# file holds exactly the packets written, in order, up to the last
# whole block.  With short writes, nothing is lost: the writer writes
# the rest, and the file holds every packet.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

# 9 MB of random frames, 8 blocks of 1 MiB: EIO after 3 writes comes
# with most of them still to write.
N=6000
netns_live_setup
preload_shim failwrite
t_ok "build the failwrite shim"

# run_faulty NAME MODE [COMPRESS]: capture N frames with the writer
# thread and the shim in MODE, with --compress=COMPRESS (default lz4;
# "none" for a plain savefile), then stop tcpdump; its stderr is
# $TMPDIR/NAME.err.
run_faulty() {
	netns_bg "$NS_B" "$TMPDIR/$1.out" "$TMPDIR/$1.err" \
	    env LD_PRELOAD="$shim" SLUICE_FAILWRITE="$2" \
	    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 16384 --writer-cpu=0 \
	    --compress="${3:-lz4}" -w "$TMPDIR/$1.pcap"
	TD=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/$1.err" "listening on" 100; then
		t_fail "$1: tcpdump did not start: $(head -3 "$TMPDIR/$1.err")"
		t_done
	fi
	send_frames $N random1518
	netns_stop "$TD" INT 100
	sed "s/^/# $1: /" "$TMPDIR/$1.err"
}

# EIO after 3 writes: the lz4 header and a couple of blocks get out.
run_faulty eio eio:3
t_expect_eq "eio: tcpdump exits 1" 1 "$NETNS_STATUS"
t_check "eio: the error names the file and EIO, and counts packets lost" \
    grep -q "^tcpdump: $TMPDIR/eio.pcap: error writing compressed savefile: Input/output error ([0-9]* packets lost)\$" \
    "$TMPDIR/eio.err"
lost=$(sed -n 's/.*Input\/output error (\([0-9]*\) packets lost)$/\1/p' "$TMPDIR/eio.err")
figures "$TMPDIR/eio.err"
echo "# summary: EIO after 3 writes: $c captured, $w written, $d dropped by writer, $lost lost, $k dropped by kernel"
t_check "eio: the statistics are printed after the error" \
    test -n "$w" -a -n "$d" -a -n "$c" -a -n "$lost"
t_expect_eq "eio: captured ($c) = written ($w) + dropped by writer ($d) + lost ($lost)" \
    "$c" "$((w + d + lost))"
t_expect_eq "eio: sent = captured + dropped by kernel" $N "$((c + k))"
"$CHK" "$TMPDIR/eio.pcap" >"$TMPDIR/eio.chk" 2>&1
t_check "eio: the file holds exactly the $w packets written, in order" \
    sh -c "grep -q '^frames: $w\$' '$TMPDIR/eio.chk' &&
        grep -q '^missing: 0\$' '$TMPDIR/eio.chk' &&
        grep -q '^out-of-order: 0\$' '$TMPDIR/eio.chk'"

# The same without compressing: the message says what the file is.
run_faulty eio-plain eio:3 none
t_expect_eq "eio, plain: tcpdump exits 1" 1 "$NETNS_STATUS"
t_check "eio, plain: the error says \"savefile\", not \"compressed savefile\"" \
    grep -q "^tcpdump: $TMPDIR/eio-plain.pcap: error writing savefile: Input/output error ([0-9]* packets lost)\$" \
    "$TMPDIR/eio-plain.err"

# Short writes: all is written in the end.
run_faulty short short
t_expect_eq "short: tcpdump exits 0" 0 "$NETNS_STATUS"
figures "$TMPDIR/short.err"
echo "# summary: short writes: $c captured, $w written, $d dropped by writer, $k dropped by kernel"
t_expect_eq "short: captured ($c) = written ($w) + dropped by writer ($d)" \
    "$c" "$((w + d))"
t_expect_eq "short: the file holds every packet written" "$w" \
    "$(count_frames "$TMPDIR/short.pcap")"
t_check "short: the file reads to its end without an error" \
    "$CHK" "$TMPDIR/short.pcap"
t_done
