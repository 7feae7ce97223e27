#!/bin/sh
#
# Levels that adapt, in a live capture: tcpdump -i VETH --compress (the
# writer thread on by default) while sluice-gen sends HTTP frames.
#
# - At 40,000 frames/s (17 MB/s) for 5 seconds into a pipe drained at
#   2 MB/s (tests/gen/slowsink), the disk is the limit: even zstd -5's
#   output (0.24 of the input, 4 MB/s) is more than it takes, so the
#   dumper climbs above its first level, -1.
# - At the same rate into a file, which keeps up, the dumper climbs too,
#   by design, but only while compressing takes under a quarter of a CPU
#   and a level writes noticeably less: to zstd 5 at most, and not to
#   6, which writes under 2% less for a fifth more CPU (sf-compress-
#   adapt.c, rule 2).  That it does not climb where the CPU is the
#   limit is checked offline, where that is reproducible (t-levels.sh:
#   a copy into a file stays at -1 or below); live, on two CPUs shared
#   with the generator, it is not.
#
# Both captures read back through tcpdump -r, and the packets in the
# files are counted against what tcpdump says it wrote.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
need_root
need_cmd ip mkfifo

build_traffic_tools
if ! netns_setup; then
	t_fail "create namespaces and veth pair"
	t_done
fi

N=200000
RATE=40000

# levels FILE: "L:N" for every level with blocks, from the exit line.
levels() {
	sed -n 's/^blocks at compression level \(.*\) ([0-9]* changes\{0,1\})$/\1/p' "$1" |
	    tr ',' '\n' | sed 's/^ *//; s/: /:/'
}

# highest FILE: the highest level with blocks.
highest() {
	levels "$1" | grep -v '^stored' | cut -d: -f1 | sort -n | tail -n 1
}

# capture LABEL OUT-FOR-TCPDUMP: run tcpdump, send, stop it with ^C.
capture() {
	netns_bg "$NS_B" "$TMPDIR/$1.out" "$TMPDIR/$1.err" \
	    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 65536 --compress -w "$2"
	_td=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/$1.err" "listening on" 100; then
		t_fail "$1: tcpdump did not start: $(head -3 "$TMPDIR/$1.err")"
		return 1
	fi
	netns_exec "$NS_A" "$GEN" --type http --count $N --rate $RATE \
	    --iface "$VETH_A" >/dev/null 2>&1 ||
	    t_fail "$1: sluice-gen failed"
	netns_stop "$_td" INT 600
	t_expect_eq "$1: tcpdump exits 0" 0 "$NETNS_STATUS"
}

# written LABEL: packets tcpdump says it wrote.
written() {
	sed -n 's/^\([0-9]*\) packets\{0,1\} written$/\1/p' "$TMPDIR/$1.err"
}

# in_file FILE: packets tcpdump -r reads from FILE.
in_file() {
	"$TCPDUMP" -r "$1" -w - 2>/dev/null | "$TCPDUMP" -r - -q -n 2>/dev/null |
	    wc -l | tr -d ' '
}

# Throttled: tcpdump's standard output is the FIFO into the slow sink.
mkfifo "$TMPDIR/fifo"
"$SINK" --rate 2M --chunk 65536 --max-seconds 120 --out "$TMPDIR/slow.pcap.zst" \
    <"$TMPDIR/fifo" 2>"$TMPDIR/sink.err" &
sink=$!
netns_bg "$NS_B" "$TMPDIR/fifo" "$TMPDIR/slow.err" \
    "$TCPDUMP" -n -i "$VETH_B" -s 2048 -B 65536 --compress -w -
td=$NETNS_BG_PID
if netns_wait_for "$TMPDIR/slow.err" "listening on" 100; then
	netns_exec "$NS_A" "$GEN" --type http --count $N --rate $RATE \
	    --iface "$VETH_A" >/dev/null 2>&1 || t_fail "slow: sluice-gen failed"
	netns_stop "$td" INT 600
	t_expect_eq "slow sink: tcpdump exits 0" 0 "$NETNS_STATUS"
else
	t_fail "slow sink: tcpdump did not start: $(head -3 "$TMPDIR/slow.err")"
fi
proc_wait_exit "$sink" 300 || kill "$sink" 2>/dev/null
wait "$sink" 2>/dev/null
top=$(highest "$TMPDIR/slow.err")
t_check "slow sink: climbs above level -1 (blocks: $(levels "$TMPDIR/slow.err" | tr '\n' ' '))" \
    sh -c "[ -n '$top' ] && [ '$top' -gt -1 ]"
t_expect_eq "slow sink: the file holds every packet written" \
    "$(written slow)" "$(in_file "$TMPDIR/slow.pcap.zst")"

# Unthrottled: a file.
capture fast "$TMPDIR/fast.pcap.zst"
top=$(highest "$TMPDIR/fast.err")
t_check "file: no block above level 5 (blocks: $(levels "$TMPDIR/fast.err" | tr '\n' ' '))" \
    sh -c "[ -n '$top' ] && [ '$top' -le 5 ]"
t_expect_eq "file: the file holds every packet written" \
    "$(written fast)" "$(in_file "$TMPDIR/fast.pcap.zst")"
netns_teardown_check
t_done
