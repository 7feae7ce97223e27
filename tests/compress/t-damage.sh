#!/bin/sh
#
# Damaged compressed savefiles: a file cut exactly at a block boundary is
# valid; cut at any byte inside the last block, it gives every whole
# block's packets and the whole records decoded of the cut one, as zcat
# would, and then an error saying "truncated"; any single
# flipped byte gives an error naming the byte offset, or (a gzip
# header's mtime) exactly the original packets -- never wrong packets.
# A damaged block in the middle of a file costs that block only: every
# packet of every other block is read, and the error comes at the end;
# read from a pipe, which cannot seek to the next block, it ends the
# read as before.

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
	t_check "$c: every cut inside the last block ($((off + 1))..$((end - 1))): the $n packets before it and what was decoded of it, each the plain file's, then \"truncated\"" \
	    "$API" cuts "$f" $((off + 1)) $end "$n" "$plain"

	head -c $((size - 7)) "$f" >"$TMPDIR/cut"
	expect_error "$c: tcpdump on a truncated file names the offset" \
	    "truncated $c compressed file*byte offset $off" \
	    -r "$TMPDIR/cut" -w "$TMPDIR/out"
	got=$("$API" read "$TMPDIR/out" | sed -n 1p)
	t_check "$c: tcpdump wrote the whole blocks' $n packets and those decoded of the cut one ($got of $total)" \
	    test "$got" -ge "$n" -a "$got" -le "$total"
	"$TCPDUMP" -r "$plain" -c "$got" -w "$TMPDIR/head" 2>/dev/null
	t_check "... byte for byte the plain file's first $got" cmp "$TMPDIR/out" "$TMPDIR/head"

	t_check "$c: every flipped byte is caught or harmless" \
	    "$API" flips "$f" "$plain"

	# A damaged first block: tcpdump fails at once and says where.
	cp "$f" "$TMPDIR/bad"
	printf '\377' | dd of="$TMPDIR/bad" bs=1 seek=200 conv=notrunc 2>/dev/null
	expect_error "$c: tcpdump on a corrupt block" \
	    "corrupt $c compressed file: bad block at byte offset" \
	    -r "$TMPDIR/bad" -w "$TMPDIR/out"
done

# Damage in the middle: the blocks after the bad one are read.  The
# magic numbers by which the reader finds a unit (zstd and LZ4 frames,
# gzip members); lzop blocks do not stand alone.
unit_magic() {
	case $1 in
	zstd) printf '\\x28\\xb5\\x2f\\xfd' ;;
	lz4) printf '\\x04\\x22\\x4d\\x18' ;;
	gzip) printf '\\x1f\\x8b\\x08' ;;
	esac
}
# 200 HTTP frames, about 75 KB: 4 KiB blocks make some 18 units.
http=$TMPDIR/http.pcap
"$SLUICE_GEN" --type http --count 200 --out "$http" >/dev/null 2>&1
"$TCPDUMP" -t -n -r "$http" >"$TMPDIR/plain.txt" 2>/dev/null
total=$(wc -l <"$TMPDIR/plain.txt")
for c in $CODECS; do
	[ $c = lzo ] && continue
	f=$TMPDIR/mid.$c
	"$API" write "$http" "$f" $c 4096 >/dev/null 2>&1
	# shellcheck disable=SC2046
	set -- $(LC_ALL=C grep -obUaP "$(unit_magic $c)" "$f" | cut -d: -f1)
	if [ $# -lt 4 ]; then
		t_fail "$c: 4 KiB blocks make at least 4 units ($#)"
		continue
	fi
	# Packets before the second unit, and in it.
	head -c "$2" "$f" >"$TMPDIR/cut"
	before=$("$API" read "$TMPDIR/cut" | sed -n 1p)
	head -c "$3" "$f" >"$TMPDIR/cut"
	in_bad=$(( $("$API" read "$TMPDIR/cut" | sed -n 1p) - before ))
	cp "$f" "$TMPDIR/bad"
	printf '\377\377\377\377' | dd of="$TMPDIR/bad" bs=1 \
	    seek=$(( ($2 + $3) / 2 )) conv=notrunc 2>/dev/null
	expect_error "$c: a bad block in the middle is reported at the end" \
	    "corrupt $c compressed file: bad block at byte offset $2: *; every other block was read" \
	    -r "$TMPDIR/bad" -w "$TMPDIR/out"
	"$TCPDUMP" -t -n -r "$TMPDIR/out" >"$TMPDIR/out.txt" 2>/dev/null
	sed "$((before + 1)),$((before + in_bad))d" "$TMPDIR/plain.txt" >"$TMPDIR/want.txt"
	if [ "$in_bad" -gt 0 ] && cmp -s "$TMPDIR/want.txt" "$TMPDIR/out.txt"; then
		t_ok "$c: every packet but the bad block's $in_bad was written ($(wc -l <"$TMPDIR/out.txt") of $total)"
	else
		t_fail "$c: the packets around the bad block ($in_bad in it, $before before it)"
		diff "$TMPDIR/want.txt" "$TMPDIR/out.txt" | head -5 | sed 's/^/#   /'
	fi
	err=$(cat "$TMPDIR/bad" | "$TCPDUMP" -r - -w "$TMPDIR/out" 2>&1)
	rc=$?
	case $rc:$err in
	1:*"corrupt $c compressed file: bad block at byte offset $2: "*)
		case $err in
		*"every other block"*)
			t_fail "$c: through a pipe, the read went past the bad block: $err" ;;
		*)	t_ok "$c: through a pipe the read ends at the bad block" ;;
		esac ;;
	*)	t_fail "$c: through a pipe: exit $rc: $err" ;;
	esac
	t_expect_eq "$c: through a pipe, the packets before it" "$before" \
	    "$("$API" read "$TMPDIR/out" | sed -n 1p)"

	# Two bad blocks, the second the last one.
	printf '\377\377\377\377' | dd of="$TMPDIR/bad" bs=1 \
	    seek=$(( $(eval echo \${$#}) + 40 )) conv=notrunc 2>/dev/null
	expect_error "$c: two bad blocks are counted" \
	    "corrupt $c compressed file: bad block at byte offset $2: *, and 1 more bad block; every other block was read" \
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

# "gzip capture.pcap" cut short (a full disk, a killed writer): one
# member, so every packet is in the cut block; they come out as zcat's
# do, then the error.
afs=$PCAPS/afs.pcap
gzip -c "$afs" >"$TMPDIR/afs.gz"
head -c $(( $(wc -c <"$TMPDIR/afs.gz") * 6 / 10 )) "$TMPDIR/afs.gz" >"$TMPDIR/afs-cut.gz"
rm -f "$TMPDIR/afs-out"
expect_error "gzip capture.pcap, cut at 60%" \
    "truncated gzip compressed file: it ends inside the block starting at byte offset 0" \
    -r "$TMPDIR/afs-cut.gz" -w "$TMPDIR/afs-out"
gzip -dc <"$TMPDIR/afs-cut.gz" 2>/dev/null |
    "$TCPDUMP" -r - -w "$TMPDIR/afs-zcat" 2>/dev/null
t_check "... it wrote what zcat | tcpdump -r - writes" \
    cmp "$TMPDIR/afs-out" "$TMPDIR/afs-zcat"
t_check "... which is not nothing" test "$("$TCPDUMP" -r "$TMPDIR/afs-out" 2>/dev/null | wc -l)" -gt 100

# Zero bytes after the last gzip member (a tape's or a block device's
# padding), which gzip -d ignores, end the file; anything after them is
# damage, reported where it starts.
"$TCPDUMP" -r "$afs" -w "$TMPDIR/afs-plain" 2>/dev/null
{ cat "$TMPDIR/afs.gz"; head -c 1000 /dev/zero; } >"$TMPDIR/afs-pad.gz"
rm -f "$TMPDIR/afs-out"
"$TCPDUMP" -r "$TMPDIR/afs-pad.gz" -w "$TMPDIR/afs-out" 2>/dev/null
t_expect_eq "gzip file padded with zeros: exit status" 0 "$?"
t_check "... every packet, as in the plain file" cmp "$TMPDIR/afs-out" "$TMPDIR/afs-plain"
rm -f "$TMPDIR/afs-out"
cat "$TMPDIR/afs-pad.gz" | "$TCPDUMP" -r - -w "$TMPDIR/afs-out" 2>/dev/null
t_check "... through a pipe too" cmp "$TMPDIR/afs-out" "$TMPDIR/afs-plain"
{ cat "$TMPDIR/afs-pad.gz"; echo junk; } >"$TMPDIR/afs-padjunk.gz"
expect_error "zeros, then junk" \
    "corrupt gzip compressed file: bad block at byte offset $(( $(wc -c <"$TMPDIR/afs-pad.gz") )): incorrect header check" \
    -r "$TMPDIR/afs-padjunk.gz" -w /dev/null

t_done
