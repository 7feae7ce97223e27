#!/bin/sh
#
# The stream behind pcap_file() of a compressed capture seeks as the
# uncompressed file's does: ftell() gives uncompressed offsets, fseek()
# goes to any of them, forward and back, SEEK_SET, SEEK_CUR and
# SEEK_END, past the end and (refused, EINVAL) before the start.
# seek-test runs the same operations on both streams and compares every
# result, for every codec, for files we write (many blocks) and files
# the standard tools compress (one unit, rewound by reading again);
# a pipe refuses to seek with ESPIPE, as a pipe of a plain capture does,
# and so does a stream past a skipped damaged block; ftell() after an
# error does not decompress again; a seek out of range fails with EINVAL
# and keeps the position; and nfpcapd's pattern (read a packet, seek
# back, read all) loses none.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd gzip lz4 zstd cmp
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

SEEK=$TMPDIR/seek-test
if ! build_c "$SEEK" "$SLUICE_SRCDIR/tests/compress/seek-test.c" -lzstd \
    >"$TMPDIR/build.log" 2>&1; then
	t_fail "seek-test.c builds against our libpcap"
	sed 's/^/#   /' "$TMPDIR/build.log" | head -20
	t_done
fi

# afs.pcap, 521,916 bytes: 128 blocks of 4 KiB, 8 of 64 KiB.
plain=$TMPDIR/plain.pcap
if ! "$TCPDUMP" -r "$PCAPS/afs.pcap" -w "$plain" 2>/dev/null ||
    ! cmp -s "$plain" "$PCAPS/afs.pcap"; then
	t_fail "the plain capture for the seek tests"
	t_done
fi
records=$("$TCPDUMP" -r "$plain" 2>/dev/null | wc -l)

# run_same DESC FILE: seek-test same, and its report.
run_same() {
	if "$SEEK" same "$plain" "$2" 3000 >"$TMPDIR/out" 2>"$TMPDIR/err" &&
	    grep -q "^$records packets$" "$TMPDIR/out"; then
		t_ok "$1: $(tr '\n' ',' <"$TMPDIR/out" | sed 's/,$//')"
	else
		t_fail "$1: $(cat "$TMPDIR/err" "$TMPDIR/out" | head -3)"
	fi
}

for c in $CODECS; do
	for bs in 4096 65536; do
		out=$TMPDIR/ours.$c.$bs
		if ! "$API" write "$plain" "$out" $c $bs >/dev/null 2>"$TMPDIR/err"; then
			t_fail "$c block $bs: sfc-api write: $(head -2 "$TMPDIR/err")"
			continue
		fi
		run_same "$c, our file, $bs-byte blocks" "$out"
		t_check "$c, our file: no file descriptor behind the stream" \
		    grep -q "^no descriptor$" "$TMPDIR/out"
	done
	compress_with_tool $c <"$plain" >"$TMPDIR/tool.$c"
	run_same "$c, compressed by the $c tool" "$TMPDIR/tool.$c"

	# A pipe cannot seek, compressed or not.
	t_expect_eq "$c through a pipe: fseek() and ftell() fail with ESPIPE" \
	    "ESPIPE ESPIPE $records" \
	    "$(cat "$TMPDIR/ours.$c.65536" | "$SEEK" pipe 2>&1)"

	t_expect_eq "$c: one packet read, a seek back, then every packet" \
	    "$records" "$("$SEEK" rewind "$TMPDIR/ours.$c.4096" 2>&1)"
done
t_expect_eq "a plain capture through a pipe: the same ESPIPE" \
    "ESPIPE ESPIPE $records" "$(cat "$plain" | "$SEEK" pipe 2>&1)"
t_expect_eq "the plain capture: one packet, a seek back, every packet" \
    "$records" "$("$SEEK" rewind "$plain" 2>&1)"

# pcapng inside (the dumper writes pcap; the tools keep pcapng).
plain_ng=$PCAPS/of13_ericsson.pcapng
for c in $CODECS; do
	compress_with_tool $c <"$plain_ng" >"$TMPDIR/ng.$c"
	if "$SEEK" same "$plain_ng" "$TMPDIR/ng.$c" 2000 >"$TMPDIR/out" \
	    2>"$TMPDIR/err" && grep -q "^[1-9][0-9]* packets$" "$TMPDIR/out"; then
		t_ok "$c around pcapng: the same as the plain pcapng file: $(tr '\n' ',' <"$TMPDIR/out" | sed 's/,$//')"
	else
		t_fail "$c around pcapng: $(head -3 "$TMPDIR/err")"
	fi
done

# table_lie OUT AT: table.zst with one more than the 32-bit size at
# byte AT (an uncompressed size of its seek table), as OUT; prints the
# true size.
table_lie() {
	_tl_was=$(od -An -tu4 -j "$2" -N 4 "$TMPDIR/table.zst" | tr -d ' ')
	_tl=$((_tl_was + 1))
	cp "$TMPDIR/table.zst" "$1"
	printf "\\$(printf %03o $((_tl & 255)))\\$(printf %03o $(((_tl >> 8) & 255)))\\$(printf %03o $(((_tl >> 16) & 255)))\\$(printf %03o $(((_tl >> 24) & 255)))" |
	    dd of="$1" bs=1 conv=notrunc seek="$2" 2>/dev/null
	echo "$_tl_was"
}

# A zstd file with a seek table at its end (the zstd "seekable format"):
# it reads and seeks as without, and the table takes a seek to the end
# straight to the last frame: with a frame in the middle damaged, the
# seek and the read there succeed, where without the table the reader
# must decompress its way through the damage.
if [ -f "$TMPDIR/ours.zstd.4096" ] &&
    "$SEEK" addtable "$TMPDIR/ours.zstd.4096" "$TMPDIR/table.zst" >"$TMPDIR/out"; then
	run_same "zstd with a seek table" "$TMPDIR/table.zst"
	t_expect_eq "zstd -d ignores the table" "" \
	    "$(zstd -dcq <"$TMPDIR/table.zst" | cmp - "$plain" 2>&1)"
	size=$(wc -c <"$plain" | tr -d ' ')
	half=$(( $(wc -c <"$TMPDIR/ours.zstd.4096") / 2 ))
	for f in ours.zstd.4096 table.zst; do
		cp "$TMPDIR/$f" "$TMPDIR/bad.$f"
		printf 'XXXX' | dd of="$TMPDIR/bad.$f" bs=1 seek=$half conv=notrunc 2>/dev/null
	done
	t_expect_eq "with the table, SEEK_END passes a damaged frame" \
	    "end $size" "$("$SEEK" end "$TMPDIR/bad.table.zst" 2>&1)"
	t_expect_eq "without it, SEEK_END meets the damage" \
	    "error: Bad message" "$("$SEEK" end "$TMPDIR/bad.ours.zstd.4096" 2>&1)"
	# A table that does not add up to the file is not used: the first
	# frame's compressed size made 1.
	cp "$TMPDIR/bad.table.zst" "$TMPDIR/bad2.zst"
	printf '\001\000\000\000' | dd of="$TMPDIR/bad2.zst" bs=1 conv=notrunc \
	    seek=$(( $(wc -c <"$TMPDIR/ours.zstd.4096") + 8 )) 2>/dev/null
	t_expect_eq "a table that does not match the file's size is ignored" \
	    "error: Bad message" "$("$SEEK" end "$TMPDIR/bad2.zst" 2>&1)"
	# A table whose last frame holds one byte more than it says: the
	# seek to the end trusts it, and the read of that frame finds it
	# out instead of handing out bytes from the wrong place.
	frames=$(od -An -tu4 -j $(( $(wc -c <"$TMPDIR/table.zst") - 9 )) -N 4 \
	    "$TMPDIR/table.zst" | tr -d ' ')
	at=$(( $(wc -c <"$TMPDIR/ours.zstd.4096") + 8 + (frames - 1) * 8 + 4 ))
	was=$(table_lie "$TMPDIR/lie.zst" "$at")
	t_expect_eq "a table that lies about a frame's size: the read of that frame fails" \
	    "error: Bad message" "$("$SEEK" end "$TMPDIR/lie.zst" 2>&1)"
	last=$(( $(wc -c <"$TMPDIR/ours.zstd.4096") - $(od -An -tu4 -j $((at - 4)) -N 4 "$TMPDIR/table.zst" | tr -d ' ') ))
	before=$(head -c $(( $(wc -c <"$plain") - was )) "$plain" |
	    "$TCPDUMP" -r - 2>/dev/null | wc -l)
	t_expect_eq "... and read from the start after it, the packets before that frame, then the error" \
	    "error after $before packets: corrupt zstd compressed file: its seek table does not match the block at byte offset $last" \
	    "$("$SEEK" endread "$TMPDIR/lie.zst" 2>&1)"
	t_expect_eq "the true table: every packet" "$records packets" \
	    "$("$SEEK" endread "$TMPDIR/table.zst" 2>&1)"
else
	t_fail "seek-test addtable: $(cat "$TMPDIR/out")"
fi

# After the last packet: ftell() answers without decompressing again
# (the compressed file underneath stays put), even where the read ended
# in an error; a seek past what an offset holds, or before the start,
# fails with EINVAL and leaves the position alone, as on the plain file.
f=$TMPDIR/ours.zstd.4096
size=$(wc -c <"$plain" | tr -d ' ')
t_expect_eq "the plain file, after its last packet" \
    "$records packets
ftell: $size
100 more ftell(): the file underneath stayed
SEEK_CUR + INT64_MAX: EINVAL, kept
SEEK_END - INT64_MAX: EINVAL, kept
SEEK_END: ok, at $size" "$("$SEEK" after "$plain" 2>&1)"
t_expect_eq "our zstd file, the same" "$("$SEEK" after "$plain" 2>&1)" \
    "$("$SEEK" after "$f" 2>&1)"
# A table one byte wrong about the second frame, which a read from the
# start has passed before the first seek: it is not used, and the end
# is where the frames say.
if [ -f "$TMPDIR/table.zst" ]; then
	table_lie "$TMPDIR/lie1.zst" $(( $(wc -c <"$f") + 8 + 8 + 4 )) >/dev/null
	t_expect_eq "a table that lies about a frame already read is not used" \
	    "$("$SEEK" after "$plain" 2>&1)" "$("$SEEK" after "$TMPDIR/lie1.zst" 2>&1)"
fi
head -c $(( $(wc -c <"$f") - 50 )) "$f" >"$TMPDIR/cut.zst"
"$SEEK" after "$TMPDIR/cut.zst" >"$TMPDIR/out" 2>&1
t_check "cut inside its last block: ftell() gives where the read stopped" \
    grep -q "^ftell: [1-9][0-9]*$" "$TMPDIR/out"
t_check "... and answers again without decompressing again" \
    grep -qx "100 more ftell(): the file underneath stayed" "$TMPDIR/out"
t_check "... SEEK_CUR + INT64_MAX fails with EINVAL, the position kept" \
    grep -qx "SEEK_CUR + INT64_MAX: EINVAL, kept" "$TMPDIR/out"
t_expect_eq "... SEEK_END goes where decoding stopped, as zstd -d's output ends" \
    "SEEK_END: ok, at $(zstd -dcq <"$TMPDIR/cut.zst" 2>/dev/null | wc -c)" \
    "$(grep '^SEEK_END: ' "$TMPDIR/out")"
# Past a skipped damaged block the offsets are short by what it held:
# the stream no longer seeks, as a pipe.
cp "$f" "$TMPDIR/mid.zst"
printf 'XXXX' | dd of="$TMPDIR/mid.zst" bs=1 seek=$(( $(wc -c <"$f") / 2 )) \
    conv=notrunc 2>/dev/null
"$SEEK" after "$TMPDIR/mid.zst" >"$TMPDIR/out" 2>&1
t_check "a damaged block skipped: fewer packets than the plain file's $records" \
    sh -c "n=\$(sed -n 's/ packets$//p' '$TMPDIR/out'); [ \"\$n\" -gt 0 ] && [ \"\$n\" -lt $records ]"
t_check "... and ftell() fails with ESPIPE" grep -qx "ftell: ESPIPE" "$TMPDIR/out"
t_done
