#!/bin/sh
# Every new tcpdump option given a bad value: one clear sentence on
# stderr (one line, starting "tcpdump: " and saying what is wrong),
# exit status 1, and nothing created on disk, not even the -w file.
# Each row: the arguments, then a fixed string the sentence must hold.
. "$SLUICE_SRCDIR/tests/lib.sh"

# Any small capture will do: the fuzz corpus has one.
in=$SLUICE_SRCDIR/tests/fuzz/corpus/read/plain.pcap
rows=$TMPDIR/rows
cat >"$rows" <<'ROWS'
--compress=foo|unknown compression "foo" (known: none, zstd, lz4, gzip
--compress=|unknown compression "" (known:
--compress=zstd:99|compression level 99 out of range for zstd (-100..19)
--compress=zstd:|invalid compression level "" for zstd
--compress=gzip:0|compression level 0 out of range for gzip (1..9)
--compress=lz4:abc|invalid compression level "abc" for lz4
--writer-ring=0x|invalid ring size "0x" for --writer-ring
--writer-ring=-1|invalid ring size "-1" for --writer-ring
--writer-ring=1|writer ring size 1 out of range (65536..
--writer-ring=1k|writer ring size 1024 out of range (65536..
--writer-ring=99999999999999999999|invalid ring size "99999999999999999999"
--writer-cpu=-1|invalid CPU number "-1" for --writer-cpu
--writer-cpu=abc|invalid CPU number "abc" for --writer-cpu
--writer-cpu=99999|CPU 99999
--erspan=1024|invalid ERSPAN session "1024" (0-1023)
--erspan=-1|invalid ERSPAN session "-1" (0-1023)
--erspan=abc|invalid ERSPAN session "abc" (0-1023)
--erspan=|invalid ERSPAN session "" (0-1023)
--writer-cpu=0 --writer-ring=0|--writer-cpu cannot be used with --writer-ring=0
ROWS

n=0
while IFS='|' read -r args want; do
	n=$((n + 1))
	[ $n -le 100 ] || break
	d=$TMPDIR/run$n
	mkdir "$d"
	# shellcheck disable=SC2086 # the row's arguments, split
	(cd "$d" && exec "$TCPDUMP" -r "$in" $args -w out.pcap \
	    >stdout 2>stderr </dev/null)
	rc=$?
	lines=$(wc -l <"$d/stderr" | tr -d ' ')
	made=$(cd "$d" && ls | grep -v -x -e stdout -e stderr | tr '\n' ' ')
	if [ $rc -eq 1 ] && [ "$lines" = 1 ] && [ -z "$made" ] &&
	    grep -q '^tcpdump: ' "$d/stderr" &&
	    grep -qF -e "$want" "$d/stderr"; then
		t_ok "$args: exit 1, one sentence, nothing written"
	else
		t_fail "$args: exit $rc, $lines lines, files '$made': $(head -3 "$d/stderr" | tr '\n' '|')"
	fi
done <"$rows"
t_expect_eq "every row was run" 19 "$n"

# The check must be able to fail: a good value passes and writes.
d=$TMPDIR/good
mkdir "$d"
(cd "$d" && "$TCPDUMP" -r "$in" --compress=zstd:3 -w out.pcap 2>stderr)
t_check "a good value still writes the file" test -s "$d/out.pcap"
t_done
