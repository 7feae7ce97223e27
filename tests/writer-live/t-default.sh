#!/bin/sh
#
# When tcpdump has a writer thread without being asked: a live capture
# with -w has one (it prints the writer's figures at exit, runs a
# second thread, and the file holds every frame in order); -U and
# --writer-ring=0 each leave it out (one thread, no figures, the same
# frames).  The ring tcpdump picks by default is 128 MiB, or a
# sixteenth of the memory if that is less, but at least 4 MiB.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup

N=3000
mem=$(awk '/^MemTotal:/ { printf "%d", $2 * 1024 }' /proc/meminfo)
ring=134217728
[ $((mem / 16)) -lt $ring ] && ring=$((mem / 16))
[ $ring -lt 4194304 ] && ring=4194304
# libpcap rounds the ring up to a power of two.
p2=4194304
while [ $p2 -lt $ring ]; do
	p2=$((p2 * 2))
done

# threads: how many threads tcpdump ($TD) runs.
threads() {
	find /proc/"$TD"/task -mindepth 1 -maxdepth 1 2>/dev/null | wc -l
}

# capture NAME ARGS...: capture N http frames with -w NAME.pcap and
# ARGS, stop with SIGINT; sets nthreads to tcpdump's threads while it
# captured.
capture() {
	_c_name=$1
	shift
	start_tcpdump "$_c_name" -s 2048 -w "$TMPDIR/$_c_name.pcap" "$@"
	send_frames $N http
	nthreads=$(threads)
	netns_stop "$TD" INT 100
	t_expect_eq "$_c_name: tcpdump exits 0" 0 "$NETNS_STATUS"
	t_check "$_c_name: the file holds frames 0..$((N - 1)), in order" \
	    "$CHK" --quiet --expect $N "$TMPDIR/$_c_name.pcap"
}

capture default
t_expect_eq "-w alone: two threads, capture and writer" 2 "$nthreads"
t_expect_eq "-w alone: the writer's figures say $N written" $N \
    "$(figure written "$TMPDIR/default.err")"
t_expect_eq "-w alone: the default ring is $p2 bytes on this machine" \
    $p2 "$(ring_figure "$TMPDIR/default.err" | cut -d' ' -f2)"

for o in -U --writer-ring=0; do
	capture "off$o" "$o"
	t_expect_eq "$o: one thread" 1 "$nthreads"
	t_check "$o: no writer figures" \
	    sh -c "! grep -q 'packets written\\|ring high-water' '$TMPDIR/off$o.err'"
done
t_done
