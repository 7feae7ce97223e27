#!/bin/sh
#
# Damaged compressed savefiles: a file cut exactly at a block boundary is
# valid; cut at any byte inside the last block, it gives every whole
# block's packets and then an error saying "truncated"; any single
# flipped byte gives an error naming the byte offset, or (a gzip
# header's mtime) exactly the original packets -- never wrong packets.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp head
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

in=$PCAPS/edns-opts.pcap
plain=$TMPDIR/plain.pcap
"$TCPDUMP" -r "$in" -w "$plain" 2>/dev/null
total=$("$API" read "$plain" | sed -n 1p)
t_expect_eq "edns-opts.pcap has 42 packets" 42 "$total"

for c in $CODECS; do
	f=$TMPDIR/pf.$c
	# 4 KiB blocks: two blocks, the last one small (no record of
	# edns-opts.pcap is larger than a block, so blocks end at records).
	off=$("$API" write "$in" "$f" $c 4096 2>/dev/null |
	    sed -n 's/^last_block_offset //p')
	size=$(wc -c <"$f")
	if [ -z "$off" ] || [ "$off" -le 0 ] || [ "$off" -ge "$size" ]; then
		t_fail "$c: no last block offset ($off, size $size)"
		continue
	fi
	head -c "$off" "$f" >"$TMPDIR/cut"
	whole=$("$API" read "$TMPDIR/cut")
	rc=$?
	n=$(echo "$whole" | sed -n 1p)
	if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]; then
		t_ok "$c: cut at the block boundary ($off of $size bytes): valid, $n packets"
	else
		t_fail "$c: cut at the block boundary: rc $rc, $whole"
		continue
	fi
	# lzop ends with a 4-byte end marker: without it the file is
	# still cut at a block boundary.
	end=$size
	[ $c = lzo ] && end=$((size - 4))
	t_check "$c: every cut inside the last block ($((off + 1))..$((end - 1))): $n packets, then \"truncated\"" \
	    "$API" cuts "$f" $((off + 1)) $end "$n"

	head -c $((size - 7)) "$f" >"$TMPDIR/cut"
	expect_error "$c: tcpdump on a truncated file names the offset" \
	    "truncated $c compressed file*byte offset $off" \
	    -r "$TMPDIR/cut" -w "$TMPDIR/out"
	got=$("$API" read "$TMPDIR/out" | sed -n 1p)
	t_expect_eq "$c: tcpdump wrote the whole blocks' packets" "$n" "$got"

	t_check "$c: every flipped byte is caught or harmless" \
	    "$API" flips "$f" "$plain"

	# A damaged first block: tcpdump fails at once and says where.
	cp "$f" "$TMPDIR/bad"
	printf '\377' | dd of="$TMPDIR/bad" bs=1 seek=200 conv=notrunc 2>/dev/null
	expect_error "$c: tcpdump on a corrupt block" \
	    "corrupt $c compressed file: bad block at byte offset" \
	    -r "$TMPDIR/bad" -w "$TMPDIR/out"
done

# Garbage after a container magic, and a container with no capture in it.
printf '\037\213\010garbage' >"$TMPDIR/junk.gz"
expect_error "gzip magic then garbage" "gzip compressed file" \
    -r "$TMPDIR/junk.gz"
echo "hello, world, this is not a capture" | gzip -c >"$TMPDIR/text.gz"
expect_error "gzip of text" "does not contain a pcap or pcapng capture" \
    -r "$TMPDIR/text.gz"
printf 'ab' | gzip -c >"$TMPDIR/short.gz"
expect_error "gzip of 2 bytes" "truncated dump file" -r "$TMPDIR/short.gz"

t_done
