#!/bin/sh
#
# How many rotated files are being finished at once.  With a writer
# thread, -C hands each full file to libpcap's closing thread and goes
# on; each file still being finished keeps its ring, so a disk slower
# than the rotations must not let them pile up: tcpdump lets at most
# four be finished at a time, and beyond that its capture waits for
# the oldest, with packets left in the kernel's buffer (and counted if
# it overflows).
#
# The "disk" here is a set of FIFOs with 1 MiB pipe buffers that a
# holder opens and does not read at first: each file takes 1 MiB
# (four 256 KiB blocks: with -C, tcpdump makes blocks of the largest
# power of two within a quarter of the size), then its writes block.
# -C 1500k hands each file half a megabyte more than that (-C counts
# what was handed to the writer thread), so every file ends up
# blocked.  What must hold:
#  - while nothing is read, tcpdump has five of the files open (four
#    being finished, the one it just handed over, the capture waiting)
#    and never opens a sixth;
#  - once the holder reads, everything completes: tcpdump exits 0, and
#    the files, in order, hold increasing frames, none twice, as many
#    as tcpdump says it wrote; captured = written + dropped by writer,
#    and captured + dropped by kernel = frames sent.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

netns_live_setup mkfifo perl

N=6000		# 1514-byte frames: 9 MB, six files' worth
D=$TMPDIR/b
NAMES="f0 f1 f2 f3 f4 f5 f6 f7 f8"
mkdir "$D"
for f in $NAMES; do
	mkfifo "$D/$f"
done

# The holder: opens every FIFO read-write (so tcpdump's open() does not
# wait for a reader), gives each a 1 MiB buffer (F_SETPIPE_SZ), then
# reads nothing until $D/drain exists; from then on it copies what
# arrives to NAME.data, until $D/stop exists and a pass finds nothing.
# Bounded: 60 s of holding, 60 s of draining.
cat >"$TMPDIR/holder.pl" <<'EOS'
use strict;
use warnings;
use Fcntl;
my ($dir, @names) = @ARGV;
my (%in, %out);
for my $n (@names) {
	sysopen($in{$n}, "$dir/$n", O_RDWR | O_NONBLOCK) or die "$n: $!\n";
	fcntl($in{$n}, 1031, 1048576) or die "F_SETPIPE_SZ $n: $!\n";
	open($out{$n}, '>:raw', "$dir/$n.data") or die "$n.data: $!\n";
}
open(my $r, '>', "$dir/ready") or die "ready: $!\n";
close($r);
for (my $i = 0; $i < 600 && ! -e "$dir/drain"; $i++) {
	select(undef, undef, undef, 0.1);
}
my $end = time + 60;
while (time < $end) {
	my $got = 0;
	for my $n (@names) {
		while (1) {
			my $k = sysread($in{$n}, my $buf, 65536);
			last if !defined($k) || $k == 0;
			print { $out{$n} } $buf;
			$got += $k;
		}
	}
	last if $got == 0 && -e "$dir/stop";
	select(undef, undef, undef, 0.02) if $got == 0;
}
close($out{$_}) for @names;
EOS
# shellcheck disable=SC2086 # NAMES is a list
perl "$TMPDIR/holder.pl" "$D" $NAMES 2>"$TMPDIR/holder.err" &
holder=$!
i=0
while [ $i -lt 100 ] && [ ! -e "$D/ready" ]; do
	sleep 0.05
	i=$((i + 1))
done
if [ ! -e "$D/ready" ]; then
	t_fail "the FIFO holder did not start: $(cat "$TMPDIR/holder.err")"
	t_done
fi

# fifos_open: how many of the FIFOs tcpdump has open, then the names.
fifos_open() {
	for _fo in /proc/"$TD"/fd/*; do
		readlink "$_fo" 2>/dev/null
	done | sed -n "s|^$D/||p" | sort | tr '\n' ' ' |
	    awk '{ $1 = $1; print NF, $0 }'
}

start_tcpdump b -s 2048 -B 4096 --writer-ring=4m -C 1500k -W 9 \
    -w "$D/f"
send_frames $N random1518
# The capture blocks once the fifth file is handed over; wait for that
# (bounded), then look again a while later: nothing may have moved.
i=0
open=$(fifos_open)
while [ $i -lt 100 ] && [ "${open%% *}" != 5 ]; do
	sleep 0.05
	open=$(fifos_open)
	i=$((i + 1))
done
t_expect_eq "with nothing read, tcpdump has 5 files open" \
    "5 f0 f1 f2 f3 f4" "$open"
sleep 1
open=$(fifos_open)
t_expect_eq "a second later, still those 5: no sixth file is opened" \
    "5 f0 f1 f2 f3 f4" "$open"

: >"$D/drain"
netns_stop "$TD" INT 300
t_expect_eq "once the files are read, tcpdump exits 0" 0 "$NETNS_STATUS"
: >"$D/stop"
wait "$holder"
t_expect_eq "the FIFO holder finished cleanly" 0 $?

figures "$TMPDIR/b.err"
sum=0
last=-1
order=ok
for f in $NAMES; do
	[ -s "$D/$f.data" ] || continue
	n=$(count_frames "$D/$f.data")
	first=$("$CHK" "$D/$f.data" | sed -n 's/^first: //p')
	"$CHK" "$D/$f.data" >"$TMPDIR/chk.out"
	if ! grep -q '^duplicates: 0$' "$TMPDIR/chk.out" ||
	    ! grep -q '^out-of-order: 0$' "$TMPDIR/chk.out" ||
	    [ "${first:--1}" -le "$last" ]; then
		order="$f is out of order (first frame $first, previous file's last $last)"
	fi
	last=$(sed -n 's/^last: //p' "$TMPDIR/chk.out")
	sum=$((sum + ${n:-0}))
done
echo "# summary: $N sent, $c captured, $w written, $d dropped by writer, $k dropped by kernel, $sum in the files"
t_expect_eq "the files hold increasing frames, none twice" ok "$order"
t_expect_eq "frames in the files = packets written" "$w" "$sum"
t_expect_eq "captured ($c) = written ($w) + dropped by writer ($d)" \
    "$c" "$((w + d))"
t_expect_eq "captured ($c) + dropped by kernel ($k) = sent" \
    $N "$((c + k))"
t_done
