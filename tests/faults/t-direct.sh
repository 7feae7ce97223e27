#!/bin/sh
#
# A compressed savefile that tcpdump opens itself (-w FILE) is written
# with O_DIRECT where the file system takes it, so that a kill cannot
# cut a block (t-sigkill.sh, t-sigkill-rotate.sh); a stream it is handed
# (-w -) goes through the page cache, as before.  Either way the file is
# the same, byte for byte: the unit that pads each O_DIRECT write to a
# page is overwritten by the next write and cut off at the close.  The
# program's descriptor is left as it was: what the shell writes to it
# after tcpdump, unaligned, follows the stream.  A file system that
# takes the flag but refuses the writes (the failwrite shim, failing
# them with EINVAL) gets the same file, written buffered, and exit 0.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd gzip lz4 zstd cmp dd
build_traffic_tools

preload_shim failwrite

if direct_io_works "$TMPDIR"; then
	direct=1
else
	direct=0
	t_skip "O_DIRECT writes" \
	    "the file system of $TMPDIR keeps O_DIRECT writes in memory or refuses them (tmpfs): only the buffered path is tested"
fi

# 40,000 HTTP frames, about 7 MB: several blocks of every codec.
in=$TMPDIR/http.pcap
if ! "$GEN" --type http --count 40000 --out "$in" >/dev/null 2>&1; then
	t_fail "sluice-gen writes $in"
	t_done
fi
for c in zstd:3 lz4:1 gzip:1; do
	n=${c%%:*}
	"$TCPDUMP" -r "$in" --compress=$c -w - 2>/dev/null >"$TMPDIR/stream.$n"
	{ "$TCPDUMP" -r "$in" --compress=$c -w - 2>/dev/null; echo tail; } \
	    >"$TMPDIR/shared.$n"
	"$TCPDUMP" -r "$in" --compress=$c -w "$TMPDIR/file.$n" 2>/dev/null
	t_expect_eq "$c: tcpdump -w FILE exits 0" 0 $?
	t_check "$c: -w FILE and -w - write the same bytes" \
	    cmp "$TMPDIR/file.$n" "$TMPDIR/stream.$n"
	{ cat "$TMPDIR/stream.$n"; echo tail; } >"$TMPDIR/expect.$n"
	t_check "$c: the shell's write after tcpdump -w - follows the stream" \
	    cmp "$TMPDIR/shared.$n" "$TMPDIR/expect.$n"
	t_check "$c: the file holds every frame" \
	    test "$(frames_in "$TMPDIR/file.$n")" = 40000
	[ $direct = 1 ] || continue
	# The header and two blocks go out with O_DIRECT; the next write
	# is refused, and the rest goes out buffered.
	env LD_PRELOAD="$shim" SLUICE_FAILWRITE=nodirect:3 "$TCPDUMP" \
	    -r "$in" --compress=$c -w "$TMPDIR/refused.$n" 2>"$TMPDIR/refused.err"
	t_expect_eq "$c: O_DIRECT writes refused: tcpdump exits 0" 0 $?
	t_check "$c: tcpdump wrote with O_DIRECT until refused" \
	    grep -q "^failwrite: an O_DIRECT write refused\$" "$TMPDIR/refused.err"
	t_check "$c: O_DIRECT writes refused: the same bytes" \
	    cmp "$TMPDIR/refused.$n" "$TMPDIR/stream.$n"
done
t_done
