#!/bin/sh
#
# Interoperability: tcpdump -r reads what gzip, lz4, zstd and lzop wrote
# (one stream, several members or frames, pcap or pcapng inside), from a
# file and from standard input; tcpdump -w - streams a compressed file;
# tshark decodes what we write; no capture of tcpdump's own test suite is
# taken for a compressed file.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd gzip lz4 zstd cmp split
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

tools="gzip lz4 zstd"
case $CODECS in *lzo*) command -v lzop >/dev/null && tools="$tools lzo" ;; esac

in=$PCAPS/afs.pcap
plain=$TMPDIR/plain.pcap
"$TCPDUMP" -r "$in" -w "$plain" 2>/dev/null
# Two pieces cut mid-record, compressed separately and concatenated:
# multi-member gzip, multi-frame zstd and lz4, two lzop streams.
split -b 200000 "$plain" "$TMPDIR/piece."

for c in $tools; do
	compress_with_tool $c <"$plain" >"$TMPDIR/one.$c"
	rm -f "$TMPDIR/back"
	"$TCPDUMP" -r "$TMPDIR/one.$c" -w "$TMPDIR/back" 2>/dev/null
	t_check "$c tool, one stream: tcpdump -r reads it" cmp "$TMPDIR/back" "$plain"

	if [ $c != lzo ]; then
		: >"$TMPDIR/multi.$c"
		for p in "$TMPDIR"/piece.*; do
			compress_with_tool $c <"$p" >>"$TMPDIR/multi.$c"
		done
		rm -f "$TMPDIR/back"
		"$TCPDUMP" -r "$TMPDIR/multi.$c" -w "$TMPDIR/back" 2>/dev/null
		t_check "$c tool, $(ls "$TMPDIR"/piece.* | wc -l) concatenated members/frames: tcpdump -r reads them" \
		    cmp "$TMPDIR/back" "$plain"
	fi

	rm -f "$TMPDIR/back"
	"$TCPDUMP" -r - -w "$TMPDIR/back" <"$TMPDIR/one.$c" 2>/dev/null
	t_check "$c on standard input (tcpdump -r -)" cmp "$TMPDIR/back" "$plain"
	rm -f "$TMPDIR/back"
	cat "$TMPDIR/one.$c" | "$TCPDUMP" -r - -w "$TMPDIR/back" 2>/dev/null
	t_check "$c through a pipe" cmp "$TMPDIR/back" "$plain"

	# -w - streams it; the tool decompresses the pipe.
	"$TCPDUMP" -r "$in" -w - --compress=$c 2>/dev/null | decompress $c /dev/stdin >"$TMPDIR/back"
	t_check "tcpdump -w - --compress=$c | $c -d" cmp "$TMPDIR/back" "$plain"
	rm -f "$TMPDIR/back"
	"$TCPDUMP" -r "$in" -w - --compress=$c 2>/dev/null |
	    "$TCPDUMP" -r - -w "$TMPDIR/back" 2>/dev/null
	t_check "tcpdump -w - --compress=$c | tcpdump -r -" cmp "$TMPDIR/back" "$plain"
done

# A reader at the end of a pipe gets every complete block at once, not
# only when more data or the end of the stream comes: the writer sends
# the first block and then stays silent (but open, for a minute) until
# the reader has written the block's records, or for at most 10 seconds,
# so the reader never sees the end of the stream.  gzip does not
# say where a member ends, so its reader reads ahead 4 KiB and would wait.
small=$PCAPS/edns-opts.pcap
for c in $tools; do
	[ $c = gzip ] && continue
	off=$("$API" write "$small" "$TMPDIR/p.$c" $c 4096 2>/dev/null |
	    sed -n 's/^last_block_offset //p')
	head -c "$off" "$TMPDIR/p.$c" >"$TMPDIR/p1.$c"
	want=$("$API" read "$TMPDIR/p1.$c" | sed -n 1p)
	rm -f "$TMPDIR/live.pcap" "$TMPDIR/fifo"
	mkfifo "$TMPDIR/fifo"
	"$TCPDUMP" -U -r - -w "$TMPDIR/live.pcap" <"$TMPDIR/fifo" 2>/dev/null &
	reader=$!
	(cat "$TMPDIR/p1.$c"; exec sleep 60) >"$TMPDIR/fifo" &
	writer=$!
	i=0
	got=
	while [ $i -lt 100 ]; do
		got=$("$API" read "$TMPDIR/live.pcap" 2>/dev/null | sed -n 1p)
		[ "$got" = "$want" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	t_expect_eq "$c through a pipe that stays open: the first block's $want packets arrive" \
	    "$want" "$got"
	kill $writer 2>/dev/null
	wait $reader 2>/dev/null
done

# pcapng inside a compressed file is read as pcapng.
ng=$PCAPS/of13_ericsson.pcapng
"$TCPDUMP" -r "$ng" -w "$TMPDIR/ng.pcap" 2>/dev/null
"$TCPDUMP" -nr "$ng" >"$TMPDIR/ng.txt" 2>/dev/null
for c in $tools; do
	compress_with_tool $c <"$ng" >"$TMPDIR/ng.$c"
	rm -f "$TMPDIR/back"
	"$TCPDUMP" -r "$TMPDIR/ng.$c" -w "$TMPDIR/back" 2>/dev/null
	t_check "pcapng in $c: same packets" cmp "$TMPDIR/back" "$TMPDIR/ng.pcap"
	"$TCPDUMP" -nr "$TMPDIR/ng.$c" 2>/dev/null >"$TMPDIR/ng2.txt"
	t_check "pcapng in $c: same decode" cmp "$TMPDIR/ng2.txt" "$TMPDIR/ng.txt"
done

# tshark decodes what we write exactly as the plain file.
if command -v tshark >/dev/null 2>&1; then
	tshark -n -r "$plain" -T fields -e frame.number -e frame.len \
	    -e frame.time_epoch -e frame.protocols >"$TMPDIR/ts.plain" 2>/dev/null
	for c in gzip zstd lz4; do
		"$TCPDUMP" -r "$in" -w "$TMPDIR/ts.$c" --compress=$c 2>/dev/null
		tshark -n -r "$TMPDIR/ts.$c" -T fields -e frame.number -e frame.len \
		    -e frame.time_epoch -e frame.protocols >"$TMPDIR/ts.out" 2>/dev/null
		if cmp -s "$TMPDIR/ts.out" "$TMPDIR/ts.plain"; then
			t_ok "tshark decodes --compress=$c like the plain file"
		elif [ $c = lz4 ] || [ $c = zstd ]; then
			# Wireshark 4.0 stops after the first LZ4 frame, and
			# looks for a zstd frame's magic at the start of its
			# read buffer rather than where the last frame ended,
			# so it misreads most multi-frame files, also those
			# the lz4 and zstd tools write (zstd -1 of 256 KiB
			# pieces of 3 MB of HTTP: 2064 of 7863 packets).
			# Check the single-frame case, where it is faithful.
			t_skip "tshark reads multi-frame $c" \
			    "tshark $(tshark --version | sed -n '1s/.*(Wireshark) \([^ ]*\).*/\1/p') misreads concatenated $c frames"
			"$API" write "$in" "$TMPDIR/ts.$c" $c 1048576 >/dev/null 2>&1
			tshark -n -r "$TMPDIR/ts.$c" -T fields -e frame.number -e frame.len \
			    -e frame.time_epoch -e frame.protocols >"$TMPDIR/ts.out" 2>/dev/null
			t_check "tshark decodes a one-block $c file like the plain file" \
			    cmp "$TMPDIR/ts.out" "$TMPDIR/ts.plain"
		else
			t_fail "tshark decodes --compress=$c differently"
		fi
	done
else
	t_skip "tshark interop" "tshark is not installed"
fi

# tcpdump's own test captures are never taken for compressed files.
n=0
bad=
for f in "$PCAPS"/*.pcap "$PCAPS"/*.pcapng "$PCAPS"/*.cap; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	if "$TCPDUMP" -r "$f" -w /dev/null 2>&1 </dev/null |
	    grep -v "^reading from file" | grep -q compressed; then
		bad="$bad $(basename "$f")"
	fi
done
if [ -z "$bad" ] && [ $n -gt 600 ]; then
	t_ok "none of the $n test captures is taken for a compressed file"
else
	t_fail "misfires on $n captures:$bad"
fi

t_done
