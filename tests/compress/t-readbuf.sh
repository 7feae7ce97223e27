#!/bin/sh
#
# The stdio buffer libpcap gives the savefiles it opens itself
# (pcap_open_offline()): a file is read in 64 KiB read() calls, not in
# the file system's 4 KiB blocks, with the same packets; a stream the
# caller passes to pcap_fopen_offline() reads the same, and when it is
# refused it is the caller's again, still usable; the standard input
# is read as before.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

in=$PCAPS/afs.pcap
size=$(wc -c <"$in")
n=$("$API" read "$in")
t_expect_eq "afs.pcap has its 601 packets" 601 "$n"

t_check "a caller's stream reads as pcap_open_offline() does; junk is refused, its stream intact" \
    "$API" streams "$in" "$TMPDIR/junk"
m=$("$API" streams "$in" "$TMPDIR/junk" 2>/dev/null | sed -n 's/ packets.*//p')
t_expect_eq "the caller's stream gives every packet" "$n" "$m"

"$TCPDUMP" -r "$in" -w "$TMPDIR/from-file" 2>/dev/null
"$TCPDUMP" -r - -w "$TMPDIR/from-stdin" <"$in" 2>/dev/null
t_check "-r FILE writes the file itself" cmp "$TMPDIR/from-file" "$in"
t_check "-r - (standard input) writes the same" \
    cmp "$TMPDIR/from-stdin" "$in"

# Count the read() calls on the savefile's descriptor, from its open to
# its close: stdio's default buffer would take size/4096 of them, the
# 64 KiB one about size/65536.  (LeakSanitizer cannot run under ptrace.)
if command -v strace >/dev/null 2>&1 &&
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -o "$TMPDIR/st" -e trace=openat,read,close \
    "$API" read "$in" >/dev/null 2>&1; then
	reads=$(awk -v f="$in" '
	    index($0, "\"" f "\"") && /^openat/ { fd = $NF; next }
	    fd != "" && index($0, "close(" fd ")") == 1 { fd = ""; next }
	    fd != "" && index($0, "read(" fd ",") == 1 { n++ }
	    END { print n + 0 }' "$TMPDIR/st")
	max=$((size / 16384 + 4))
	if [ "$reads" -gt 0 ] && [ "$reads" -le "$max" ]; then
		t_ok "$size bytes read in $reads read() calls (at most $max)"
	else
		t_fail "$size bytes read in $reads read() calls, expected 1 to $max"
	fi
else
	t_skip "read() calls on a savefile" "strace is missing or cannot trace"
fi

t_done
