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
# read from a pipe, which cannot seek to the next block, or in a file
# whose units do not end at records, it ends the read as before.

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

# A file compressed in arbitrary parts (split(1), then each part a unit):
# its records straddle units, so the unit after a damaged one starts
# inside a record, and reading on there would hand out a record made of
# two.  The read ends at the damaged unit instead, with the packets of
# the units before it.  Where the units before it happen to end at
# records but the one after it does not start at one, the skip is tried
# and refused.
#
# arb_units CODEC OUT PART...: each part a unit of OUT; sets units to the
# units' compressed offsets and ends to the plain offsets they end at.
arb_units() {
	_c=$1 _out=$2
	shift 2
	: >"$_out"
	units= ends= _plain=0
	for _p in "$@"; do
		units="$units $(wc -c <"$_out")"
		compress_with_tool "$_c" <"$_p" >>"$_out"
		_plain=$((_plain + $(wc -c <"$_p")))
		ends="$ends $_plain"
	done
}
# first_packets N: the plain file's first N packets, as a savefile.
first_packets() {
	"$TCPDUMP" -r "$http" -c "$1" -w "$TMPDIR/first" 2>/dev/null
}
# whole_records BYTES: how many records of the plain file lie wholly in
# its first BYTES.
whole_records() {
	head -c "$1" "$http" | "$TCPDUMP" -r - -w "$TMPDIR/head" 2>/dev/null
	"$API" read "$TMPDIR/head" | sed -n 1p
}
# damage FILE OFFSET: four bytes of FILE overwritten at OFFSET.
damage() {
	printf '\377\377\377\377' | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
rm -f "$TMPDIR"/part.*
(cd "$TMPDIR" && split -b 3000 "$http" part.)
# The first 10 packets alone, then the rest cut every 3000 bytes.
first_packets 10
n10=$(wc -c <"$TMPDIR/first")
head -c "$n10" "$http" >"$TMPDIR/lead"
tail -c +$((n10 + 1)) "$http" >"$TMPDIR/rest"
rm -f "$TMPDIR"/rest.*
(cd "$TMPDIR" && split -b 3000 rest rest.)
for c in $CODECS; do
	[ $c = lzo ] && continue
	# shellcheck disable=SC2046
	arb_units $c "$TMPDIR/arb.$c" $(ls "$TMPDIR"/part.*)
	# shellcheck disable=SC2086
	set -- $units
	u2=$2 u3=$3 u4=$4
	# shellcheck disable=SC2086
	set -- $ends
	k=$(whole_records "$2")
	cp "$TMPDIR/arb.$c" "$TMPDIR/bad"
	damage "$TMPDIR/bad" $(( (u3 + u4) / 2 ))
	rm -f "$TMPDIR/out"
	err=$("$TCPDUMP" -r "$TMPDIR/bad" -w "$TMPDIR/out" 2>&1)
	rc=$?
	case $rc:$err in
	*"every other block"*)
		t_fail "$c, parts of 3000 bytes, the third damaged: the read went on past it: $err" ;;
	1:*"corrupt $c compressed file: bad block at byte offset $u3: "*)
		t_ok "$c, parts of 3000 bytes, the third damaged: the read ends there" ;;
	*)	t_fail "$c, parts of 3000 bytes, the third damaged: exit $rc: $err" ;;
	esac
	first_packets "$k"
	t_check "... with the $k packets wholly in the first two parts, byte for byte" \
	    cmp "$TMPDIR/out" "$TMPDIR/first"

	# shellcheck disable=SC2046
	arb_units $c "$TMPDIR/arb.$c" "$TMPDIR/lead" $(ls "$TMPDIR"/rest.*)
	# shellcheck disable=SC2086
	set -- $units
	cp "$TMPDIR/arb.$c" "$TMPDIR/bad"
	damage "$TMPDIR/bad" $(( ($2 + $3) / 2 ))
	rm -f "$TMPDIR/out"
	expect_error "$c, 10 packets, then parts of 3000 bytes, the first of them damaged: the skip is refused" \
	    "corrupt $c compressed file: bad block at byte offset $2: *; the block after it does not start at a packet record, so no more could be read" \
	    -r "$TMPDIR/bad" -w "$TMPDIR/out"
	first_packets 10
	t_check "... with the 10 packets before it, byte for byte" \
	    cmp "$TMPDIR/out" "$TMPDIR/first"
done

# After a skipped unit, a unit too large to hold (more than 16 MiB) is
# streamed unwalked: it cannot be shown to start at a record, so the
# read ends there rather than hand out what might be half a record.
# 130 frames of 262,144 bytes: 2 in the first unit, 2 in the damaged
# one, 126 (33 MB) in the last.
big=$SLUICE_SRCDIR/libpcap/tests/filter/compressed-large.pcap.zst
zstd -dcq <"$big" >"$TMPDIR/big1"
{ cat "$TMPDIR/big1"; tail -c +25 "$TMPDIR/big1"; } >"$TMPDIR/big.pcap"
rec=262160
head -c $((24 + 2 * rec)) "$TMPDIR/big.pcap" | gzip -1 -c >"$TMPDIR/big.gz"
u2=$(wc -c <"$TMPDIR/big.gz")
tail -c +$((24 + 2 * rec + 1)) "$TMPDIR/big.pcap" | head -c $((2 * rec)) |
    gzip -1 -c >>"$TMPDIR/big.gz"
u3=$(wc -c <"$TMPDIR/big.gz")
tail -c +$((24 + 4 * rec + 1)) "$TMPDIR/big.pcap" | gzip -1 -c >>"$TMPDIR/big.gz"
damage "$TMPDIR/big.gz" $(( (u2 + u3) / 2 ))
rm -f "$TMPDIR/out"
expect_error "gzip, a damaged unit, then one of 33 MB: the skip is refused" \
    "corrupt gzip compressed file: bad block at byte offset $u2: *; the block after it is too large to check that it starts at a packet record, so no more could be read" \
    -r "$TMPDIR/big.gz" -w "$TMPDIR/out"
t_expect_eq "... with the 2 packets before it" 2 \
    "$("$API" read "$TMPDIR/out" | sed -n 1p)"
rm -f "$TMPDIR/big1" "$TMPDIR/big.pcap"

# pcapng, in units cut at block boundaries: reading goes on past a
# damaged unit, as in a dumper's pcap files.
ng=$SLUICE_BUILDDIR/src/tcpdump-4.99.6/tests/of13_ericsson.pcapng
"$TCPDUMP" -S -t -n -r "$ng" >"$TMPDIR/ng.txt" 2>/dev/null
rm -f "$TMPDIR"/ngpart.*
start=0 i=0
for end in $("$API" blocks "$ng"); do
	[ $((end - start)) -lt 3000 ] && continue
	i=$((i + 1))
	tail -c +$((start + 1)) "$ng" | head -c $((end - start)) \
	    >"$TMPDIR/ngpart.$(printf %03d $i)"
	start=$end
done
tail -c +$((start + 1)) "$ng" >"$TMPDIR/ngpart.999"
# ng_packets BYTES: how many packets the pcapng file has in its first BYTES.
ng_packets() {
	head -c "$1" "$ng" | "$TCPDUMP" -S -t -n -r - 2>/dev/null | wc -l
}
for c in $CODECS; do
	[ $c = lzo ] && continue
	# shellcheck disable=SC2046
	arb_units $c "$TMPDIR/ng.$c" $(ls "$TMPDIR"/ngpart.*)
	# shellcheck disable=SC2086
	set -- $units
	u3=$3 u4=$4
	# shellcheck disable=SC2086
	set -- $ends
	k2=$(ng_packets "$2") k3=$(ng_packets "$3")
	cp "$TMPDIR/ng.$c" "$TMPDIR/bad"
	damage "$TMPDIR/bad" $(( (u3 + u4) / 2 ))
	expect_error "$c, pcapng in units of whole blocks, the third damaged: the read goes on past it" \
	    "corrupt $c compressed file: bad block at byte offset $u3: *; every other block was read" \
	    -r "$TMPDIR/bad" -w /dev/null
	"$TCPDUMP" -S -t -n -r "$TMPDIR/bad" >"$TMPDIR/out.txt" 2>/dev/null
	sed "$((k2 + 1)),${k3}d" "$TMPDIR/ng.txt" >"$TMPDIR/want.txt"
	if [ "$k3" -gt "$k2" ] && cmp -s "$TMPDIR/want.txt" "$TMPDIR/out.txt"; then
		t_ok "... every packet but the third unit's $((k3 - k2)) ($(wc -l <"$TMPDIR/out.txt") of $(wc -l <"$TMPDIR/ng.txt"))"
	else
		t_fail "... the packets around the damaged unit ($k2 before it, $k3 after it)"
		diff "$TMPDIR/want.txt" "$TMPDIR/out.txt" | head -5 | sed 's/^/#   /'
	fi
done

t_done
