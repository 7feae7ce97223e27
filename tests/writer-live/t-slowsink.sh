#!/bin/sh
#
# A slow disk: tcpdump --writer-ring=4m -w - into slowsink at 5 MB/s,
# and a burst of frames several times the ring's size at 30 MB/s.  The
# writer thread blocks in write(), the ring fills and the writer drops
# whole packets; the capture keeps going (the kernel drops nothing, or
# what it drops is counted), and every frame is accounted for exactly:
#	frames in the file + dropped by writer + dropped by kernel = sent
# The file holds an increasing run of intact frames.  Once the ring has
# drained, a second, small burst is captured whole: the capture did not
# stop.  Stock tcpdump, given the same
# slow sink, blocks in write() and can only lose frames in the kernel.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

need_root
need_cmd ip mkfifo

N=12000		# 1514-byte frames: 18 MB, 4.5 times the ring
build_traffic_tools
if ! netns_setup; then
	t_fail "create namespaces and veth pair"
	t_done
fi

mkfifo "$TMPDIR/fifo"
"$SINK" --rate 5M --max-seconds 60 --out "$TMPDIR/slow.pcap" \
    <"$TMPDIR/fifo" 2>"$TMPDIR/sink.err" &
sink=$!
# tcpdump's standard output is the FIFO (netns_bg's OUT).
netns_bg "$NS_B" "$TMPDIR/fifo" "$TMPDIR/td.err" \
    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 65536 --writer-ring=4m -w -
td=$NETNS_BG_PID
if ! netns_wait_for "$TMPDIR/td.err" "listening on" 100; then
	t_fail "tcpdump did not start: $(head -3 "$TMPDIR/td.err")"
	t_done
fi
rx0=$(rx_count)
send_frames $N random1518
# The ring has drained into the block when the sink stops growing.
i=0
size=-1
while [ $i -lt 100 ]; do
	now=$(wc -c <"$TMPDIR/slow.pcap")
	[ "$now" = "$size" ] && break
	size=$now
	sleep 0.5
	i=$((i + 1))
done
netns_exec "$NS_A" "$GEN" --type random1518 --count 100 --seq-start $N \
    --rate 20000 --iface "$VETH_A" 2>"$TMPDIR/gen.err" ||
    t_fail "sluice-gen: $(cat "$TMPDIR/gen.err")"
N2=$((N + 100))
wait_rx "$rx0" $N2 || t_fail "the veth did not receive $N2 frames"
rx=$(($(rx_count) - rx0))
t_expect_eq "the veth received all $N2 frames" $N2 "$rx"
# tcpdump drains the ring into the slow sink (about a second) and exits.
netns_stop "$td" INT 300
t_expect_eq "tcpdump exits 0" 0 "$NETNS_STATUS"
wait "$sink"
t_expect_eq "slowsink saw the end of the stream" 0 $?

figures "$TMPDIR/td.err"
hw=$(ring_figure "$TMPDIR/td.err")
f=$(count_frames "$TMPDIR/slow.pcap")
echo "# summary: slow sink 5 MB/s, 4 MiB ring: $N2 sent, $c captured, $f in file, $w written, $d dropped by writer, $k dropped by kernel, ring high-water ${hw% *} of ${hw#* }"
t_check "the writer dropped packets (the burst is larger than the ring)" \
    test -n "$d" -a "${d:-0}" -gt 0
t_check "the ring was nearly full (${hw% *} of ${hw#* } bytes)" \
    test "${hw#* }" = 4194304 -a "${hw% *}" -gt 3145728
t_expect_eq "frames in the file = packets written" "$w" "$f"
t_expect_eq "in file ($f) + dropped by writer ($d) + dropped by kernel ($k) = sent" \
    $N2 "$((f + d + k))"
t_expect_eq "captured ($c) = written ($w) + dropped by writer ($d)" \
    "$c" "$((w + d))"
t_check "the file holds intact frames in increasing order, none twice" \
    sh -c "'$CHK' '$TMPDIR/slow.pcap' | grep -q '^duplicates: 0\$' &&
        '$CHK' '$TMPDIR/slow.pcap' | grep -q '^out-of-order: 0\$'"
t_check "the capture kept going: the second burst is in the file" \
    sh -c "'$CHK' '$TMPDIR/slow.pcap' | grep -q '^last: $((N2 - 1))\$'"
t_done
