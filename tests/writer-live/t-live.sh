#!/bin/sh
#
# tcpdump with a writer thread, live on a veth pair:
#  - --writer-cpu=0 --compress: the file holds exactly the N frames sent,
#    in order, and the exit figures say N written, none dropped;
#  - the same without --compress (block-buffered plain pcap), to -w -;
#  - SIGINT in the middle of a stream of frames: tcpdump exits 0 and
#    leaves a complete, readable file holding the first "written" frames,
#    in order, and written + dropped by writer = captured;
#  - SIGTERM, with -c: the same;
#  - -C rotation: every frame, over several files, once and in order.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=5000
netns_live_setup

# 1. Pinned writer, compressed file.
start_tcpdump pinned -s 2048 -B 16384 --writer-cpu=0 --compress=zstd \
    -w "$TMPDIR/pinned.pcap"
send_frames $N
netns_stop "$TD" INT 100
t_expect_eq "pinned: tcpdump exits 0" 0 "$NETNS_STATUS"
t_expect_eq "pinned: $N packets written" $N \
    "$(figure written "$TMPDIR/pinned.err")"
t_expect_eq "pinned: none dropped by writer" 0 \
    "$(figure "dropped by writer (ring full)" "$TMPDIR/pinned.err")"
hw=$(ring_figure "$TMPDIR/pinned.err")
t_check "pinned: ring high-water mark reported ($hw), default ring 128 MiB" \
    test "${hw#* }" = 134217728 -a "${hw% *}" -gt 0
t_check "pinned: the zstd file holds exactly the $N frames, in order" \
    "$CHK" --quiet --expect $N "$TMPDIR/pinned.pcap"
t_check "pinned: it is a zstd frame stream" \
    sh -c "zstd -dc '$TMPDIR/pinned.pcap' >/dev/null"

# 2. No --compress, to the standard output.
start_tcpdump stdout -s 2048 -B 16384 --writer-ring=1m -w -
send_frames $N slammer
netns_stop "$TD" INT 100
t_expect_eq "-w -: tcpdump exits 0" 0 "$NETNS_STATUS"
t_check "-w -: plain pcap holding exactly the $N frames, in order" \
    "$CHK" --quiet --expect $N "$TMPDIR/stdout.out"
t_expect_eq "-w -: it is uncompressed pcap" "d4c3b2a1" \
    "$(od -An -tx1 -N4 "$TMPDIR/stdout.out" | tr -d ' ')"

# 3. SIGINT while frames keep arriving.
start_tcpdump sigint -s 2048 -B 16384 --writer-cpu=0 --compress=lz4 \
    -w "$TMPDIR/sigint.pcap"
rx0=$(rx_count)
# In the background: ends by itself after 2 seconds.
netns_exec "$NS_A" "$GEN" --type http --duration 2 --rate 20000 \
    --iface "$VETH_A" 2>/dev/null &
gen=$!
wait_rx "$rx0" 5000 || t_fail "sigint: no traffic arrived"
netns_stop "$TD" INT 100
t_expect_eq "SIGINT mid-capture: tcpdump exits 0" 0 "$NETNS_STATUS"
wait "$gen"
figures "$TMPDIR/sigint.err"
echo "# summary: SIGINT mid-capture: $c captured, $w written, $d dropped by writer"
t_check "SIGINT: written ($w) + dropped by writer ($d) = captured ($c)" \
    test -n "$w" -a -n "$d" -a "$((w + d))" = "$c"
t_check "SIGINT: the file reads back cleanly" \
    sh -c "'$TCPDUMP' -r '$TMPDIR/sigint.pcap' -w /dev/null 2>&1 |
        grep -v '^reading from' | grep . && exit 1; exit 0"
t_check "SIGINT: it holds the first $w frames, in order" \
    "$CHK" --quiet --expect "$w" "$TMPDIR/sigint.pcap"

# 4. -c count, then SIGTERM is not needed; and SIGTERM before the count.
start_tcpdump count -s 2048 -B 16384 --writer-ring=256k -c 1000 \
    -w "$TMPDIR/count.pcap"
send_frames 1500
netns_stop "$TD" TERM 100
t_expect_eq "-c 1000: tcpdump exits 0" 0 "$NETNS_STATUS"
t_expect_eq "-c 1000: 1000 packets written" 1000 \
    "$(figure written "$TMPDIR/count.err")"
t_check "-c 1000: the file holds frames 0..999" \
    "$CHK" --quiet --expect 1000 "$TMPDIR/count.pcap"
start_tcpdump term -s 2048 -B 16384 --writer-ring=256k -w "$TMPDIR/term.pcap"
send_frames 700
netns_stop "$TD" TERM 100
t_expect_eq "SIGTERM: tcpdump exits 0" 0 "$NETNS_STATUS"
t_check "SIGTERM: the file holds frames 0..699" \
    "$CHK" --quiet --expect 700 "$TMPDIR/term.pcap"

# 5. -C rotation (1 MB files): every frame once, in order, over the files.
# The ring holds the whole burst (7.6 MB), so that a writer thread the
# scheduler keeps waiting on a busy machine drops nothing.
mkdir "$TMPDIR/rot"
start_tcpdump rot -s 2048 -B 16384 --writer-ring=16m --compress=none -C 1 \
    -w "$TMPDIR/rot/f"
send_frames $N random1518
netns_stop "$TD" INT 100
t_expect_eq "-C 1: tcpdump exits 0" 0 "$NETNS_STATUS"
nf=$(find "$TMPDIR/rot" -name 'f*' | wc -l)
t_check "-C 1: several files ($nf)" test "$nf" -ge 5
t_expect_eq "-C 1: written, summed over the files" $N \
    "$(figure written "$TMPDIR/rot.err")"
# File f, f1, f2, ...: each holds the frames that follow the last one's.
# shellcheck disable=SC2046 # file names are ours, without blanks
t_check "-C 1: the files hold frames 0..$((N - 1)), in order, once each" \
    check_in_order "$TMPDIR/rot" $N $(cd "$TMPDIR/rot" && ls f* | sort -V)
t_done
