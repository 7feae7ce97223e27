#!/bin/sh
#
# tcpdump's writer thread options, without a network: bad values get a
# clear error and exit status 1 (a CPU that does not exist, ring sizes
# out of range or malformed, the options without -w); good ones write a
# file identical to the one written without a writer thread, with and
# without --compress, and report the writer's figures.  Reading a
# savefile there is no writer thread unless asked for.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp

in=$SLUICE_BUILDDIR/src/tcpdump-4.99.6/tests/afs.pcap
out=$TMPDIR/out.pcap

# refused DESC PATTERN ARGS...: tcpdump fails with status 1 and says PATTERN.
refused() {
	_d=$1
	_p=$2
	shift 2
	_e=$("$TCPDUMP" -r "$in" "$@" 2>&1 >/dev/null)
	_rc=$?
	case $_rc:$_e in
	1:*"$_p"*)	t_ok "$_d: exit 1, \"$(echo "$_e" | tail -1)\"" ;;
	*)		t_fail "$_d: exit $_rc: $_e" ;;
	esac
}

refused "--writer-cpu=99999" \
    "tcpdump: --writer-cpu: cannot pin the writer thread to CPU 99999: no such CPU is available to this process" \
    -w "$out" --writer-cpu=99999
refused "--writer-cpu=-1" 'invalid CPU number "-1" for --writer-cpu' \
    -w "$out" --writer-cpu=-1
refused "--writer-cpu=1x" 'invalid CPU number "1x" for --writer-cpu' \
    -w "$out" --writer-cpu=1x
refused "--writer-ring=1k" \
    "--writer-ring: writer ring size 1024 out of range" \
    -w "$out" --writer-ring=1k
refused "--writer-ring=0 --writer-cpu=0" \
    "tcpdump: --writer-cpu cannot be used with --writer-ring=0." \
    -w "$out" --writer-ring=0 --writer-cpu=0
refused "--writer-cpu=0 --writer-ring=0" \
    "tcpdump: --writer-cpu cannot be used with --writer-ring=0." \
    -w "$out" --writer-cpu=0 --writer-ring=0
refused "--writer-ring=4q" 'invalid ring size "4q" for --writer-ring' \
    -w "$out" --writer-ring=4q
refused "--writer-ring=99999999999g" 'invalid ring size "99999999999g"' \
    -w "$out" --writer-ring=99999999999g
refused "--writer-ring without -w" "cannot be used without -w" \
    --writer-ring=1m
t_check "no file is left by a refused option" test ! -e "$out"

"$TCPDUMP" -r "$in" -w "$TMPDIR/ref.pcap" 2>/dev/null
n=$("$TCPDUMP" -r "$in" 2>/dev/null | wc -l)
for c in "" --compress=zstd --compress=gzip; do
	rm -f "$out" "$TMPDIR/back.pcap"
	# shellcheck disable=SC2086
	"$TCPDUMP" -r "$in" -w "$out" --writer-cpu=0 --writer-ring=1m $c \
	    2>"$TMPDIR/err"
	rc=$?
	"$TCPDUMP" -r "$out" -w "$TMPDIR/back.pcap" 2>/dev/null
	t_check "--writer-cpu=0 --writer-ring=1m ${c:-(plain)}: exit $rc, same file as without" \
	    sh -c "[ $rc = 0 ] && cmp '$TMPDIR/ref.pcap' '$TMPDIR/back.pcap'"
	t_check "... and '$n packets written', '0 packets dropped by writer', ring of 1 MiB" \
	    sh -c "grep -qx '$n packets written' '$TMPDIR/err' &&
	        grep -qx '0 packets dropped by writer (ring full)' '$TMPDIR/err' &&
	        grep -q '^ring high-water mark [1-9][0-9]* of 1048576 bytes\$' '$TMPDIR/err'"
done
for o in "" --writer-ring=0; do
	rm -f "$out"
	# shellcheck disable=SC2086
	"$TCPDUMP" -r "$in" -w "$out" $o 2>"$TMPDIR/err"
	rc=$?
	t_check "-r -w ${o:-(no writer option)}: exit $rc, same file, no writer figures" \
	    sh -c "[ $rc = 0 ] && cmp '$TMPDIR/ref.pcap' '$out' &&
	        ! grep -q 'packets written\|ring high-water' '$TMPDIR/err'"
done
# The ring is rounded up to a power of two; reading a savefile, it
# holds at least the largest record (256 KiB and a header), as the
# reading waits for room rather than dropping (t-offline.sh).
"$TCPDUMP" -r "$in" -w "$out" --writer-ring=600000 2>"$TMPDIR/err"
t_check "--writer-ring=600000 gives a ring of 1048576 bytes" \
    grep -q ' of 1048576 bytes$' "$TMPDIR/err"
"$TCPDUMP" -r "$in" -w "$out" --writer-ring=100000 2>"$TMPDIR/err"
t_check "-r --writer-ring=100000 gives a ring of 524288 bytes" \
    grep -q ' of 524288 bytes$' "$TMPDIR/err"
t_check "the usage text lists --writer-cpu and --writer-ring" \
    sh -c "'$TCPDUMP' -h 2>&1 | grep -q -- '--writer-cpu=cpu ] \\[ --writer-ring=size'"
t_done
