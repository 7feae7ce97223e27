#!/bin/sh
#
# --disk-budget holds a run's files under a size over 100 rotations:
# tcpdump -C 1 --disk-budget=5m, fed 100 MB of random frames, never has
# more than 5 MiB of files on disk (sampled every 0.05 s), keeps the
# newest files, which hold the last frames sent, in order, and says how
# many files it deleted.  Each file ends with the record that took it
# over -C's size, however far behind the writer thread is.  A file of an earlier run in the same directory
# is left alone.  The refusals are one sentence each.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

N=80000		# 1514-byte frames: 121 MB, about 105 files
BUDGET=$((5 * 1024 * 1024))
netns_live_setup
dir=$TMPDIR/b
mkdir "$dir"
# Not this run's, named as its files are but beyond the ones it
# reaches: it must stay.
printf 'earlier run\n' >"$dir/f999"
start_tcpdump b -s 2048 -B 16384 -C 1 --disk-budget=5m -w "$dir/f"
# Sample the files' total while the frames go by.
(
	i=0
	while [ $i -lt 600 ] && [ ! -e "$TMPDIR/stop" ]; do
		du -cb "$dir"/f* 2>/dev/null | tail -1 | cut -f1
		sleep 0.05
		i=$((i + 1))
	done
) >"$TMPDIR/samples" &
sampler=$!
send_frames $N random1518 20000
: >"$TMPDIR/stop"
wait "$sampler"
netns_stop "$TD" INT 100
t_expect_eq "tcpdump exits 0" 0 "$NETNS_STATUS"
sed 's/^/# stderr: /' "$TMPDIR/b.err" | tail -8
figures "$TMPDIR/b.err"
deleted=$(sed -n 's/^\([0-9]*\) files\{0,1\} deleted to keep within the disk budget of [0-9]* bytes$/\1/p' "$TMPDIR/b.err")
files=$(ls "$dir" | grep -c '^f[0-9]*$')
max=$(sort -n "$TMPDIR/samples" | tail -1)
end=$(du -cb "$dir"/f* | tail -1 | cut -f1)
echo "# summary: $((files - 1)) files kept, ${deleted:-?} deleted, at most $max bytes on disk (budget $BUDGET), $end at the end"
t_check "about 100 rotations, of which all but the last few files were deleted ($deleted)" \
    test "${deleted:-0}" -ge 90
t_check "the files never exceeded the budget ($max of $BUDGET bytes, $(wc -l <"$TMPDIR/samples") samples)" \
    test "${max:-0}" -gt 0 -a "${max:-0}" -le $BUDGET
t_check "... nor at the end ($end)" test "$end" -le $BUDGET
t_check "... and the budget was used: more than 3 MiB kept ($end)" \
    test "$end" -gt $((3 * 1024 * 1024))
t_expect_eq "the file of an earlier run is still there" "earlier run" \
    "$(cat "$dir/f999")"
rm "$dir/f999"
# -C counts what was handed to the writer thread, not what it has
# written so far: each file but the last ends with the first record
# that took it over 1,000,000 bytes, as stock tcpdump's do.
sizes=$(cd "$dir" && ls | grep '^f' | sort -V | sed '$d' | xargs stat -c %s | tr '\n' ' ')
t_check "each full file is over 1,000,000 bytes by less than a record ($sizes)" \
    sh -c "echo '$sizes' | awk '{ for (i = 1; i <= NF; i++)
        if (\$i <= 1000000 || \$i > 1000000 + 1530) exit 1; exit NF == 0 }'"
# The files kept hold the last frames, in order, up to the last sent:
# a frame is missing between them, or at the end, only as the kernel
# dropped frames (none on a machine that keeps up).
# shellcheck disable=SC2046 # file names are ours, without blanks
cat_frames() {
	for f in $(cd "$dir" && ls | grep '^f' | sort -V); do
		"$CHK" "$dir/$f" 2>/dev/null | sed -n 's/^\(first\|last\): //p'
	done | tr '\n' ' '
}
seqs=$(cat_frames)
echo "# first/last of each file kept: $seqs"
t_check "the files kept follow each other with no frame missing but the kernel's $k, the last sent last" \
    sh -c "echo '$seqs' | awk -v n=$((N - 1)) -v k=${k:-0} '{
        for (i = 3; i <= NF; i += 2) {
                if (\$i <= \$(i - 1)) exit 1;
                gap += \$i - \$(i - 1) - 1;
        }
        exit (NF > 0 && gap + n - \$NF <= k && \$NF <= n) ? 0 : 1 }'"

# Refusals.
out=$("$TCPDUMP" --disk-budget=5m -r /dev/null -w "$TMPDIR/x" 2>&1)
t_expect_eq "without -C or -G: exit 1, one sentence" \
    "1 tcpdump: --disk-budget cannot be used without -C or -G." "$? $out"
out=$("$TCPDUMP" --disk-budget=5x -C 1 -r /dev/null -w "$TMPDIR/x" 2>&1)
t_expect_eq "a bad size: exit 1, one sentence" \
    "1 tcpdump: invalid disk budget \"5x\" for --disk-budget (bytes, or k, m, g)" "$? $out"
out=$("$TCPDUMP" --disk-budget=5m -C 1 -z gzip -r /dev/null -w "$TMPDIR/x" 2>&1)
t_expect_eq "with -z: exit 1, one sentence" \
    "1 tcpdump: --disk-budget cannot be used with -z." "$? $out"
t_done
