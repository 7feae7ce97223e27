#!/bin/sh
#
# bench/'s real HTTP trace (bench/lib.sh: bench_http_trace): nginx in a
# namespace of its own serves wrk, tcpdump records the loopback.  The
# trace must hold exactly the frames asked for, Ethernet-sized, real
# requests and responses; nothing may be left behind (namespace, nginx);
# a second call must use the cached file; and sluice-gen --replay must
# number every frame of it.  Speed is never checked.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_root
need_cmd bash ip nginx wrk

build_traffic_tools
FRAMES=600
trace=$TMPDIR/cache/http-real.pcap

# record: call bench_http_trace as the bench does; prints the pid of the
# shell that made the namespace, then HTTP_TRACE or the reason.
record() {
	BENCH_DIR=$SLUICE_SRCDIR/bench BENCH_OUT=$TMPDIR/out \
	    BENCH_SCRATCH=$TMPDIR/scratch BENCH_TOOLS=$TMPDIR/tools \
	    HTTP_TRACE_CACHE=$trace HTTP_TRACE_FRAMES=$FRAMES \
	    bash -c '. "$BENCH_DIR/lib.sh" && bench_init || exit 1
		echo "$$"
		if bench_http_trace; then
			echo "$HTTP_TRACE"
		else
			echo "n/a: $HTTP_TRACE_NA"
			exit 1
		fi'
}

record >"$TMPDIR/rec.out" 2>"$TMPDIR/rec.err"
t_expect_eq "bench_http_trace: exit 0" 0 $?
t_expect_eq "bench_http_trace: HTTP_TRACE is the cache file" "$trace" \
    "$(sed -n 2p "$TMPDIR/rec.out")"
pid=$(sed -n 1p "$TMPDIR/rec.out")
if ip netns list | grep -q "^sluice-h-$pid\\b"; then
	t_fail "its namespace sluice-h-$pid is removed"
else
	t_ok "its namespace sluice-h-$pid is removed"
fi
t_expect_eq "no nginx of its own is left running" 0 \
    "$(pgrep -c -f -- "$TMPDIR/scratch/http/nginx.conf")"
t_check "its scratch dir is removed" test ! -e "$TMPDIR/scratch/http"

"$TCPDUMP" -e -nr "$trace" >"$TMPDIR/trace.txt" 2>/dev/null
t_expect_eq "the trace holds exactly $FRAMES frames" $FRAMES \
    "$(wc -l <"$TMPDIR/trace.txt" | tr -d ' ')"
t_expect_eq "every frame is TCP to or from port 8080 on 127.0.0.1" $FRAMES \
    "$(grep -c -E '127\.0\.0\.1\.[0-9]+ > 127\.0\.0\.1\.[0-9]+: Flags' "$TMPDIR/trace.txt")"
t_expect_eq "no frame is larger than an Ethernet MTU allows (1514)" 0 \
    "$(sed -n 's/.*ethertype IPv4 (0x0800), length \([0-9]*\):.*/\1/p' "$TMPDIR/trace.txt" |
    awk '$1 > 1514 { n++ } END { print n + 0 }')"
"$TCPDUMP" -A -nr "$trace" >"$TMPDIR/trace.a" 2>/dev/null
for s in "GET /gpl.txt HTTP/1.1" "HTTP/1.1 200 OK" "HTTP/1.1 404 Not Found" \
    "Server: nginx"; do
	t_check "it has real traffic: \"$s\"" grep -q "$s" "$TMPDIR/trace.a"
done

# The cache: a second call does not record again.
before=$(stat -c '%i %Y %s' "$trace")
sleep 1
record >"$TMPDIR/rec2.out" 2>"$TMPDIR/rec2.err"
t_expect_eq "second call: exit 0" 0 $?
t_expect_eq "second call: the cached trace is used as it is" "$before" \
    "$(stat -c '%i %Y %s' "$trace")"
t_check "second call: no new recording (no wrk run)" \
    sh -c "! grep -q 'wrk:' '$TMPDIR/rec2.err'"

# A damaged cache is recorded again.
printf 'not a capture\n' >"$trace"
record >"$TMPDIR/rec3.out" 2>"$TMPDIR/rec3.err"
t_expect_eq "damaged cache: recorded again" $FRAMES \
    "$("$TCPDUMP" -nr "$trace" 2>/dev/null | wc -l | tr -d ' ')"

# Replayed with sequence numbers, as the loss experiment does.
"$GEN" --replay "$trace" --count 1500 --out "$TMPDIR/replayed.pcap" \
    2>"$TMPDIR/replay.err"
t_expect_eq "replay: exit 0" 0 $?
t_check "replay: no frame of the trace is skipped" \
    sh -c "! grep -q skipped '$TMPDIR/replay.err'"
t_check "replay: 1500 frames numbered 0..1499 in order" \
    "$CHK" --quiet --expect 1500 "$TMPDIR/replayed.pcap"
t_done
