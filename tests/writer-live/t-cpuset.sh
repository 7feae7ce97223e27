#!/bin/sh
#
# --writer-cpu accepts any CPU the process may run on, not only those of
# the thread that asks: "taskset -c 1 tcpdump --writer-cpu=0", Gulp's
# way of putting the capture and the writer on two CPUs, pins the
# capture thread to CPU 1 and the writer thread to CPU 0, and the file
# is the same as without a writer thread.  A CPU the kernel refuses is
# reported by number when the option is given.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp
need_cmd taskset

# The CPUs this shell may run on: the process's cpuset as far as we can
# tell without cgroup files.
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
case $allowed in
*[,-]*) ;;
*)	echo "1..0 # SKIP only CPU $allowed is available to this process"
	exit 77 ;;
esac
if ! taskset -c 0 true 2>/dev/null || ! taskset -c 1 true 2>/dev/null; then
	echo "1..0 # SKIP CPUs 0 and 1 are not both available (allowed: $allowed)"
	exit 77
fi

in=$SLUICE_BUILDDIR/src/tcpdump-4.99.6/tests/afs.pcap
n=$("$TCPDUMP" -r "$in" 2>/dev/null | wc -l)
"$TCPDUMP" -r "$in" -w "$TMPDIR/ref.pcap" 2>/dev/null

# tcpdump reading a pipe that stays open, so that its threads can be
# looked at while they run.
mkfifo "$TMPDIR/fifo"
taskset -c 1 "$TCPDUMP" -r "$TMPDIR/fifo" -w "$TMPDIR/out.pcap" \
    --writer-cpu=0 --writer-ring=1m 2>"$TMPDIR/err" &
pid=$!
(cat "$in"; sleep 10) >"$TMPDIR/fifo" &
feeder=$!

# At most 5 s for the writer thread to appear.
i=0
writer=
while [ $i -lt 100 ] && [ -z "$writer" ]; do
	for t in /proc/"$pid"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = pcap-writer ] && writer=$t
	done
	[ -n "$writer" ] || sleep 0.05
	i=$((i + 1))
done
cap=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/"$pid"/status 2>/dev/null)
wcpu=
[ -n "$writer" ] &&
    wcpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$writer/status")
t_expect_eq "taskset -c 1 tcpdump --writer-cpu=0: the capture thread on CPU 1" 1 "$cap"
t_expect_eq "... and the pcap-writer thread on CPU 0" 0 "$wcpu"
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
wait "$pid"
rc=$?
"$TCPDUMP" -r "$TMPDIR/out.pcap" -w "$TMPDIR/back.pcap" 2>/dev/null
t_check "... exit $rc, '$n packets written', the same file as without a writer thread" \
    sh -c "[ $rc = 0 ] && grep -qx '$n packets written' '$TMPDIR/err' &&
        cmp '$TMPDIR/ref.pcap' '$TMPDIR/back.pcap'"

# A CPU number in range that no machine here has: the kernel refuses it.
e=$(taskset -c 1 "$TCPDUMP" -r "$in" -w "$TMPDIR/x.pcap" --writer-cpu=1023 2>&1 >/dev/null)
rc=$?
case $rc:$e in
1:*"cannot pin the writer thread to CPU 1023: no such CPU is available to this process"*)
	t_ok "--writer-cpu=1023: exit 1, \"$(echo "$e" | tail -1)\"" ;;
*)	t_fail "--writer-cpu=1023: exit $rc: $e" ;;
esac
t_done
