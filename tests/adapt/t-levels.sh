#!/bin/sh
#
# Compression that adapts to the bottleneck, end to end (libpcap:
# the planner of sf-compress-write.c driving sf-compress-adapt.c):
#
# - "--compress=CODEC" and "CODEC:auto" let the dumper pick the level;
#   a fixed level ("zstd:-5") prints no level line.
# - Copying HTTP frames with the writer thread into a pipe drained at
#   8 MB/s (tests/gen/slowsink), the disk is the limit: the dumper climbs
#   above its first level, so one file holds blocks of several levels,
#   and it reads back byte-identical to the input.  zstd, lz4 and gzip;
#   zstd's blocks from level 3 up are 8 MiB, so one file also holds
#   blocks of two sizes.
# - Copying them into /dev/null with tcpdump on one CPU, the CPU is the
#   limit on any machine: writing costs next to nothing, so compressing
#   never takes less time than writing every byte as it is, and zstd
#   never goes above its first level (-1).  Into a file, whether it pays
#   depends on what that machine's write() costs against its codec (a
#   CI run on one CPU once wrote blocks at zstd 1): on one CPU and on
#   every CPU the level goes where the copy is no slower than a plain
#   one (unit-tested with fixed timings in adapt-test.c), and here only
#   the files are checked: they read back byte-identical.
# - Random frames into the slow pipe: the codec saves nothing, the
#   dumper does not climb.
#
# The figures come from tcpdump's exit line, "blocks at compression
# level L: N, ...", which counts the blocks written at each level.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp taskset
build_traffic_tools

http=$TMPDIR/http.pcap
rand=$TMPDIR/random.pcap
"$GEN" --type http --count 400k --out "$http" >/dev/null 2>&1 &&
"$GEN" --type random1518 --count 20k --out "$rand" >/dev/null 2>&1 ||
    { t_fail "generate the input"; t_done; }

# levels FILE: "L:N" for every level with blocks, from the exit line.
levels() {
	sed -n 's/^blocks at compression level \(.*\) ([0-9]* changes\{0,1\})$/\1/p' "$1" |
	    tr ',' '\n' | sed 's/^ *//; s/: /:/'
}

# highest FILE: the highest level with blocks.
highest() {
	levels "$1" | grep -v '^stored' | cut -d: -f1 | sort -n | tail -n 1
}

# copy IN CODEC OUT ERR [slow|slow-unthreaded|onecpu]: tcpdump -r IN
# -w OUT, through the slow pipe (without the writer thread if asked) or
# on CPU 0 alone if asked; the exit status of tcpdump.
copy() {
	ring=4m
	chunk=65536
	if [ "${5:-}" = slow-unthreaded ]; then
		# Drained 64 KiB at a time, the pipe takes a compressed
		# block of 40-odd KiB (256 KiB blocks) at once after every
		# other drain, and a writer without its thread then looks
		# half as busy as it is: under AddressSanitizer it took 44
		# blocks to over 146 to climb.  Drained 4 KiB at a time,
		# every write() waits, as onto a disk: 24 to 27 blocks, with
		# and without the sanitizers.  A climb takes at least 24
		# blocks (8 to measure, 16 to agree), so the input is 400k
		# frames, 150 MB: 145 blocks of 1 MiB.
		ring=0
		chunk=4096
	fi
	if [ "${5:-}" = onecpu ]; then
		taskset -c 0 "$TCPDUMP" -r "$1" -w "$3" --compress="$2" \
		    --writer-ring=4m 2>"$4"
		return
	fi
	if [ "${5:-}" = slow ] || [ "${5:-}" = slow-unthreaded ]; then
		{ "$TCPDUMP" -r "$1" -w - --compress="$2" --writer-ring=$ring \
		    2>"$4"; echo $? >"$4.rc"; } |
		    "$SINK" --rate 8M --chunk $chunk --max-seconds 30 \
		    --out "$3" 2>/dev/null
		return "$(cat "$4.rc")"
	fi
	"$TCPDUMP" -r "$1" -w "$3" --compress="$2" --writer-ring=4m 2>"$4"
}

# roundtrip FILE INPUT: reads back byte-identical.
roundtrip() {
	rm -f "$TMPDIR/back.pcap"
	"$TCPDUMP" -r "$1" -w "$TMPDIR/back.pcap" 2>/dev/null &&
	    cmp -s "$2" "$TMPDIR/back.pcap"
}

for c in zstd lz4 gzip; do
	copy "$http" "$c" "$TMPDIR/slow.$c" "$TMPDIR/slow.err" slow
	rc=$?
	t_check "$c, slow pipe: exit 0" [ "$rc" = 0 ]
	first=$(levels "$TMPDIR/slow.err" | head -n 1 | cut -d: -f1)
	top=$(highest "$TMPDIR/slow.err")
	n=$(levels "$TMPDIR/slow.err" | grep -cv '^stored')
	t_check "$c, slow pipe: blocks at more than one level ($(levels "$TMPDIR/slow.err" | tr '\n' ' '))" \
	    [ "$n" -ge 2 ]
	t_check "$c, slow pipe: climbs above level $first (to $top)" \
	    sh -c "[ -n '$top' ] && [ '$top' -gt '$first' ]"
	t_check "$c, slow pipe: the mixed-level file reads back byte-identical" \
	    roundtrip "$TMPDIR/slow.$c" "$http"
	# zstd fills 8 MiB blocks from level 3 up and 1 MiB ones below:
	# the input is within the bounds that the blocks written at each
	# level give, less or more a block for every level change (the
	# block being filled when the level changes keeps what it has).
	# (The sizes at each level are unit-tested in encoder-test.c.)
	if [ $c = zstd ] && [ -n "$top" ] && [ "$top" -ge 3 ]; then
		lo=$(levels "$TMPDIR/slow.err" | tr ':' ' ' |
		    awk '$1 == "stored" || $1 < 3 { n += $2 } END { print n + 0 }')
		hi=$(levels "$TMPDIR/slow.err" | tr ':' ' ' |
		    awk '$1 != "stored" && $1 >= 3 { n += $2 } END { print n + 0 }')
		ch=$(sed -n 's/^blocks at compression level .* (\([0-9]*\) changes\{0,1\})$/\1/p' \
		    "$TMPDIR/slow.err")
		mib=$(($(wc -c <"$http") / 1048576))
		t_check "zstd, slow pipe: blocks of 1 MiB below level 3, 8 MiB from 3 up ($lo and $hi blocks, $ch changes, $mib MiB)" \
		    sh -c "[ $((lo + hi)) -lt $mib ] &&
			[ $((lo + 8 * hi + 7 * ch)) -ge $mib ] &&
			[ $((8 * hi - 7 * (ch + 1))) -le $mib ]"
	elif [ $c = zstd ]; then
		t_skip "zstd, slow pipe: blocks of 8 MiB" \
		    "the writer stopped at level ${top:-none}, below 3"
	fi
	rm -f "$TMPDIR/slow.$c"
done

# Without the writer thread, the capture thread compresses with the
# dumper's one encoder: the same climb.
copy "$http" zstd "$TMPDIR/slow.unthr" "$TMPDIR/slow.err" slow-unthreaded
t_check "zstd, slow pipe, no writer thread: exit 0" [ $? = 0 ]
top=$(highest "$TMPDIR/slow.err")
t_check "zstd, slow pipe, no writer thread: climbs above level -1 (to ${top:-none})" \
    sh -c "[ -n '$top' ] && [ '$top' -gt -1 ]"
t_check "zstd, slow pipe, no writer thread: reads back byte-identical" \
    roundtrip "$TMPDIR/slow.unthr" "$http"
rm -f "$TMPDIR/slow.unthr"

# stays_down LABEL INPUT SPEC OUT [slow|onecpu]: a copy into OUT that
# exits 0 and writes no block above zstd's first level, -1; one into a
# file also reads back byte-identical.
stays_down() {
	copy "$2" "$3" "$4" "$TMPDIR/down.err" "${5:-}"
	t_check "$1: exit 0" [ $? = 0 ]
	t_check "$1: the level line" \
	    grep -q '^blocks at compression level .* changes\{0,1\})$' "$TMPDIR/down.err"
	top=$(highest "$TMPDIR/down.err")
	t_check "$1: never above level -1 (highest: ${top:-none})" \
	    sh -c "[ -z '$top' ] || [ '$top' -le -1 ]"
	if [ "$4" != /dev/null ]; then
		t_check "$1: reads back byte-identical" \
		    roundtrip "$4" "$2"
	fi
}

stays_down "zstd:auto to /dev/null, on one CPU" "$http" zstd:auto /dev/null onecpu

# to_file LABEL [onecpu]: zstd:auto into a file exits 0 and reads back.
to_file() {
	copy "$http" zstd:auto "$TMPDIR/auto.zst" "$TMPDIR/auto.err" "${2:-}"
	t_check "zstd:auto to a file, $1: exit 0" [ $? = 0 ]
	t_check "zstd:auto to a file, $1: reads back byte-identical ($(levels "$TMPDIR/auto.err" | tr '\n' ' '))" \
	    roundtrip "$TMPDIR/auto.zst" "$http"
}

to_file "on one CPU" onecpu
to_file "every CPU"
stays_down "random frames, slow pipe" "$rand" zstd "$TMPDIR/down.zst" slow

copy "$http" zstd:-5 "$TMPDIR/fixed.zst" "$TMPDIR/fixed.err"
t_check "zstd:-5: exit 0 and no level line" sh -c \
    "[ $? = 0 ] && ! grep -q '^blocks at compression level' '$TMPDIR/fixed.err'"

"$TCPDUMP" -r "$http" -c 1 -w "$TMPDIR/bad" --compress=zstd:fast \
    >/dev/null 2>"$TMPDIR/bad.err"
t_check "zstd:fast: exit 1" [ $? = 1 ]
t_check "zstd:fast: one sentence" grep -q 'invalid compression level "fast" for zstd' "$TMPDIR/bad.err"
"$TCPDUMP" -r "$http" -c 1 -w "$TMPDIR/bad" --compress=none:auto \
    >/dev/null 2>"$TMPDIR/bad.err"
t_check "none:auto: refused, takes no level" grep -q 'compression "none" takes no level' "$TMPDIR/bad.err"
t_done
