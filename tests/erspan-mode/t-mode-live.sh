#!/bin/sh
# ERSPAN mode on a live veth: tcpdump --erspan / -y ERSPAN.
#
# sluice-gen sends, in order:
#	A  4000 random UDP frames in ERSPAN type II, session 1;
#	B    20 HTTP frames in ERSPAN type III, session 7;
#	C   300 HTTP frames, not encapsulated;
#	D    20 HTTP frames in ERSPAN type II, session 5.
# With the filter "tcp port 80", 40 of 4340 frames (B and D, under 1%)
# match in ERSPAN mode; C would match it in an ordinary capture.
#
# Checks: tcpdump -L lists ERSPAN on the veth and not on "any"; with
# --erspan 'tcp port 80' user space receives only the 40 matching frames
# ("received by filter" is the kernel's count of frames that passed the
# filter: the kernel dropped the other 4300) and the file holds exactly
# the inner frames of B and D, byte for byte (sluice-gen writes the same
# frames unencapsulated to a reference file); --erspan=7 with -s 100 and
# immediate mode (a TPACKET_V2 ring) keeps B only, each cut to 100 bytes
# of the inner frame; an application that never sets a filter
# (erspan-live.c) gets the inner frames of A, B and D and the kernel
# keeps C out (also with an empty filter, and for one session when one
# is set); and leaving the mode removes the mode's filter, but not the
# application's.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"

need_root
need_cmd ip editcap

LIVE=$TMPDIR/erspan-live
RATE=20000

build_traffic_tools
if ! build_c "$LIVE" "$SLUICE_SRCDIR/tests/erspan-mode/erspan-live.c"; then
	t_fail "build erspan-live"
	t_done
fi

if ! netns_setup; then
	t_fail "create namespaces and veth pair"
	t_done
fi
t_ok "namespaces $NS_A, $NS_B joined by $VETH_A-$VETH_B"

# The four streams: name, sequence start, count, generator options.
STREAMS='A 0 4000 --type random64 --erspan 2 --erspan-session 1
B 10000 20 --type http --erspan 3 --erspan-session 7
C 20000 300 --type http
D 10020 20 --type http --erspan 2 --erspan-session 5'

# References: the inner frames of B and D, as sluice-gen writes them
# without encapsulation (same options otherwise).
ref() {
	"$GEN" --type http --count 20 --seq-start "$1" --seed 42 \
	    --out "$2" 2>>"$TMPDIR/gen.err"
}
if ! ref 10000 "$TMPDIR/ref-B.pcap" || ! ref 10020 "$TMPDIR/ref-D.pcap" ||
    ! "$GEN" --type random64 --count 4000 --seq-start 0 --seed 42 \
    --out "$TMPDIR/ref-A.pcap" 2>>"$TMPDIR/gen.err"; then
	t_fail "write the reference files: $(cat "$TMPDIR/gen.err")"
	t_done
fi
editcap -s 100 "$TMPDIR/ref-B.pcap" "$TMPDIR/ref-B100.pcap"

send_all() {
	printf '%s\n' "$STREAMS" | while read -r _n _s _c _opts; do
		# shellcheck disable=SC2086
		netns_exec "$NS_A" "$GEN" $_opts --count "$_c" --seq-start "$_s" \
		    --seed 42 --rate $RATE --iface "$VETH_A" \
		    2>>"$TMPDIR/send.err" || echo "send $_n failed" >&2
	done
}

# wait_captured PID N ERR: wait (bounded) until tcpdump reports N packets
# captured on SIGUSR1, so that none is left in its ring when it stops.
wait_captured() {
	_i=0
	while [ $_i -lt 100 ]; do
		kill -USR1 "$1" 2>/dev/null
		sleep 0.1
		if grep -q "^tcpdump: $2 packets captured" "$3"; then
			return 0
		fi
		_i=$((_i + 1))
	done
	return 1
}

# --- tcpdump -L ---------------------------------------------------------
netns_exec "$NS_B" "$TCPDUMP" -L -i "$VETH_B" >"$TMPDIR/L.out" 2>&1
t_check "tcpdump -L lists ERSPAN on $VETH_B" \
    grep -q '^  ERSPAN (Ethernet frames mirrored in ERSPAN)$' "$TMPDIR/L.out"
t_check "tcpdump -L still lists EN10MB and DOCSIS on $VETH_B" \
    sh -c "grep -q '^  EN10MB' '$TMPDIR/L.out' && grep -q '^  DOCSIS' '$TMPDIR/L.out'"
netns_exec "$NS_B" "$TCPDUMP" -L -i any >"$TMPDIR/Lany.out" 2>&1
if grep -q ERSPAN "$TMPDIR/Lany.out"; then
	t_fail "tcpdump -L does not list ERSPAN on any"
else
	t_ok "tcpdump -L does not list ERSPAN on any"
fi
if netns_exec "$NS_B" "$TCPDUMP" -i any --erspan -c 1 >"$TMPDIR/any.out" 2>&1; then
	t_fail "--erspan on any is refused: it ran"
else
	t_check "--erspan on any is refused" \
	    grep -q 'ERSPAN is not one of the DLTs supported by this device' \
	    "$TMPDIR/any.out"
fi

# --- 1: --erspan 'tcp port 80' ------------------------------------------
netns_bg "$NS_B" "$TMPDIR/t1.out" "$TMPDIR/t1.err" \
    "$TCPDUMP" -n -i "$VETH_B" --erspan -B 16384 -w "$TMPDIR/cap1.pcap" \
    'tcp port 80'
td=$NETNS_BG_PID
if netns_wait_for "$TMPDIR/t1.err" "listening on" 100; then
	t_check "tcpdump --erspan listens with link-type ERSPAN" \
	    grep -q "link-type ERSPAN" "$TMPDIR/t1.err"
else
	t_fail "tcpdump --erspan did not start: $(head -3 "$TMPDIR/t1.err")"
	t_done
fi
send_all
t_check "sent 4340 frames" test "$(grep -c '^sluice-gen: sent' "$TMPDIR/send.err")" -eq 4
wait_captured "$td" 40 "$TMPDIR/t1.err"
netns_stop "$td" INT 100
t_expect_eq "tcpdump exits 0" 0 "$NETNS_STATUS"
t_check "40 packets captured" grep -q '^40 packets captured$' "$TMPDIR/t1.err"
t_check "40 packets received by filter: the kernel dropped the other 4300" \
    grep -q '^40 packets received by filter$' "$TMPDIR/t1.err"
t_check "0 packets dropped by kernel" \
    grep -q '^0 packets dropped by kernel$' "$TMPDIR/t1.err"
t_check "0 packets skipped as not ERSPAN" \
    grep -q '^0 packets skipped as not ERSPAN$' "$TMPDIR/t1.err"
if "$CHK" --quiet --expect 40 --seq-start 10000 --compare "$TMPDIR/ref-B.pcap" \
    --compare "$TMPDIR/ref-D.pcap" "$TMPDIR/cap1.pcap" >"$TMPDIR/chk.out" 2>&1; then
	t_ok "the file is the inner frames of B and D, byte for byte"
else
	t_fail "the file is the inner frames of B and D, byte for byte"
	sed 's/^/#   /' "$TMPDIR/chk.out" | head -20
fi

# --- 1b: --erspan 'inbound and tcp port 80' -----------------------------
# "inbound" reads Linux's ancillary data, at absolute offsets however
# far the mode moved the expression: every frame here is inbound, and
# the kernel's program passes the 40.  How many reach the file is not
# checked: libpcap filters the ring block current when a filter is set
# in user space as well, where Linux's ancillary data cannot be read, so
# with this little traffic none does, as with stock tcpdump 'inbound'.
netns_bg "$NS_B" "$TMPDIR/t1b.out" "$TMPDIR/t1b.err" \
    "$TCPDUMP" -n -i "$VETH_B" --erspan -B 16384 -w "$TMPDIR/cap1b.pcap" \
    'inbound and tcp port 80'
td=$NETNS_BG_PID
if netns_wait_for "$TMPDIR/t1b.err" "listening on" 100; then
	send_all
	sleep 1
	netns_stop "$td" INT 100
	t_check "'inbound and tcp port 80': the kernel passed 40 and dropped the other 4300" \
	    grep -q '^40 packets received by filter$' "$TMPDIR/t1b.err"
else
	t_fail "tcpdump --erspan inbound did not start: $(head -3 "$TMPDIR/t1b.err")"
fi

# --- 2: --erspan=7 -s 100 --immediate-mode -------------------------------
: >"$TMPDIR/send.err"
netns_bg "$NS_B" "$TMPDIR/t2.out" "$TMPDIR/t2.err" \
    "$TCPDUMP" -n -i "$VETH_B" --erspan=7 -s 100 --immediate-mode \
    -B 16384 -w "$TMPDIR/cap2.pcap" 'tcp port 80'
td=$NETNS_BG_PID
if ! netns_wait_for "$TMPDIR/t2.err" "listening on" 100; then
	t_fail "tcpdump --erspan=7 did not start: $(head -3 "$TMPDIR/t2.err")"
	t_done
fi
send_all
wait_captured "$td" 20 "$TMPDIR/t2.err"
netns_stop "$td" INT 100
t_expect_eq "--erspan=7: tcpdump exits 0" 0 "$NETNS_STATUS"
t_check "--erspan=7: 20 packets received by filter (session 5 dropped in the kernel)" \
    grep -q '^20 packets received by filter$' "$TMPDIR/t2.err"
t_check "--erspan=7: snapshot length 100" \
    grep -q 'snapshot length 100 bytes' "$TMPDIR/t2.err"
if "$CHK" --quiet --compare "$TMPDIR/ref-B100.pcap" "$TMPDIR/cap2.pcap" \
    >"$TMPDIR/chk2.out" 2>&1 &&
    [ "$("$TCPDUMP" -r "$TMPDIR/cap2.pcap" --count 2>/dev/null)" = "20 packets" ]; then
	t_ok "--erspan=7 -s 100: the inner frames of B, cut at 100 bytes of the inner frame"
else
	t_fail "--erspan=7 -s 100: the inner frames of B, cut at 100 bytes of the inner frame"
	sed 's/^/#   /' "$TMPDIR/chk2.out" | head -20
fi
big=$("$TCPDUMP" -r "$TMPDIR/ref-B.pcap" -c 1 -e 2>/dev/null | sed -n 's/.*length \([0-9]*\):.*/\1/p')
t_check "the HTTP frames are longer than 100 bytes ($big)" test "${big:-0}" -gt 100

# --- 3: no filter set at all, and the mode's own filter -------------------
# live_run NAME WANT [erspan-live options]: run erspan-live (switch to
# ERSPAN mode, then the options) while all four streams are sent; its
# summary line is in $TMPDIR/NAME.out, the frames in $TMPDIR/NAME.pcap.
live_run() {
	_lr_name=$1
	_lr_want=$2
	shift 2
	: >"$TMPDIR/send.err"
	netns_bg "$NS_B" "$TMPDIR/$_lr_name.out" "$TMPDIR/$_lr_name.err" \
	    "$LIVE" "$@" "$VETH_B" "$TMPDIR/$_lr_name.pcap" "$_lr_want" 60
	_lr_pid=$NETNS_BG_PID
	if ! netns_wait_for "$TMPDIR/$_lr_name.err" "^ready" 100; then
		t_fail "$_lr_name: erspan-live did not start: $(head -3 "$TMPDIR/$_lr_name.err")"
		netns_stop "$_lr_pid" TERM 10
		return 1
	fi
	send_all
	_lr_i=0
	while [ $_lr_i -lt 700 ] && proc_alive "$_lr_pid"; do
		sleep 0.1
		_lr_i=$((_lr_i + 1))
	done
	netns_stop "$_lr_pid" TERM 10
	t_expect_eq "$_lr_name: erspan-live exits 0" 0 "$NETNS_STATUS"
}

# No filter ever set: the kernel keeps C (300 frames) out, so user
# space receives only A, B and D ("recv" is the kernel's count of
# frames that passed its filter; without the mode's filter it would be
# 4340, and C would be counted as not ERSPAN).
if live_run nofilter 4040; then
	t_expect_eq "no filter: only A, B, D reach user space, none skipped" \
	    "delivered 4040 malformed 0 recv 4040" "$(cat "$TMPDIR/nofilter.out")"
	if "$CHK" --quiet --compare "$TMPDIR/ref-A.pcap" --compare "$TMPDIR/ref-B.pcap" \
	    --compare "$TMPDIR/ref-D.pcap" "$TMPDIR/nofilter.pcap" >"$TMPDIR/chk3.out" 2>&1; then
		t_ok "no filter: the file is the inner frames of A, B and D"
	else
		t_fail "no filter: the file is the inner frames of A, B and D"
		sed 's/^/#   /' "$TMPDIR/chk3.out" | head -20
	fi
fi

# An empty filter set by the application means the same.
if live_run empty 4040 -f ''; then
	t_expect_eq "empty filter: only A, B, D reach user space" \
	    "delivered 4040 malformed 0 recv 4040" "$(cat "$TMPDIR/empty.out")"
fi

# A session set after the mode: the mode's filter follows it, so
# sessions 1 and 5 stay in the kernel too.
if live_run session7 20 -e 7; then
	t_expect_eq "no filter, session 7: only B reaches user space" \
	    "delivered 20 malformed 0 recv 20" "$(cat "$TMPDIR/session7.out")"
fi

# Leaving the mode removes its filter: everything arrives again (this
# also shows that the counts above come from the kernel filter).
if live_run back 4340 -b EN10MB; then
	t_expect_eq "back to EN10MB: all 4340 frames reach user space" \
	    "delivered 4340 malformed 0 recv 4340" "$(cat "$TMPDIR/back.out")"
fi
# DOCSIS is selected without the capture module (pcap_set_datalink()).
if live_run docsis 4340 -b DOCSIS; then
	t_expect_eq "on to DOCSIS: all 4340 frames reach user space" \
	    "delivered 4340 malformed 0 recv 4340" "$(cat "$TMPDIR/docsis.out")"
fi

# ... but not a filter the application set: compiled in ERSPAN mode,
# "tcp port 80" keeps the outer frames of B and D.
if live_run backfilter 40 -f 'tcp port 80' -b EN10MB; then
	t_expect_eq "back to EN10MB: the application's filter stays" \
	    "delivered 40 malformed 0 recv 40" "$(cat "$TMPDIR/backfilter.out")"
fi

netns_teardown_check
t_done
