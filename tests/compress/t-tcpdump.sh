#!/bin/sh
#
# tcpdump --compress with the options it composes with: -C/-W rotation
# (sizes are bytes on disk), -z, -U, -s, filters, empty captures, a full
# disk, and clear errors for what is wrong on the command line.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp gzip zstd
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

in=$PCAPS/afs.pcap
plain=$TMPDIR/plain.pcap
"$TCPDUMP" -r "$in" -w "$plain" 2>/dev/null
total=$("$API" read "$plain" | sed -n 1p)

"$TCPDUMP" -h 2>&1 | grep -q -- '--compress\[=algo\[:level\]\]'
t_expect_eq "the usage text shows --compress" 0 $?

# -C: rotate by compressed bytes on disk.  Every file is a complete
# compressed savefile; together they hold every record, in order.  No
# file overshoots 50 KiB by more than a quarter: with -C, tcpdump makes
# blocks of the largest power of two within a quarter of the size (8
# KiB here), where libpcap's default of 1 MiB would put the whole 0.5
# MB input into one file.
for c in $CODECS; do
	d=$TMPDIR/rot.$c
	mkdir "$d"
	"$TCPDUMP" -r "$in" -w "$d/cap" --compress=$c -C 50k 2>/dev/null
	rc=$?
	nfiles=$(ls "$d" | wc -l)
	t_expect_eq "-C 50k --compress=$c exits 0" 0 $rc
	if [ "$nfiles" -ge 2 ]; then
		t_ok "-C 50k --compress=$c rotated into $nfiles files"
	else
		t_fail "-C 50k --compress=$c made $nfiles files"
	fi
	head -c 24 "$plain" >"$TMPDIR/all.pcap"
	okfiles=0
	small=
	big=
	i=0
	while [ $i -lt "$nfiles" ]; do
		f=$d/cap$i
		[ $i -eq 0 ] && f=$d/cap
		if decompress $c "$f" >"$TMPDIR/one.pcap" 2>/dev/null &&
		    "$TCPDUMP" -r "$f" -w /dev/null 2>/dev/null; then
			okfiles=$((okfiles + 1))
		fi
		tail -c +25 "$TMPDIR/one.pcap" >>"$TMPDIR/all.pcap"
		# Every file but the last reached 50 KiB on disk.
		[ $i -eq $((nfiles - 1)) ] ||
		    [ "$(wc -c <"$f")" -ge 51200 ] || small="$small $f"
		[ "$(wc -c <"$f")" -le 64000 ] || big="$big $f"
		i=$((i + 1))
	done
	t_expect_eq "-C --compress=$c: every file is a valid $c savefile" "$nfiles" "$okfiles"
	t_expect_eq "-C --compress=$c: files are rotated after 50 KiB on disk" "" "$small"
	t_expect_eq "-C --compress=$c: no file is over 50 KiB by more than a quarter" "" "$big"
	t_check "-C --compress=$c: the files hold every record in order" \
	    cmp "$TMPDIR/all.pcap" "$plain"
done

# -W 2: a ring of two files.
d=$TMPDIR/ring
mkdir "$d"
"$TCPDUMP" -r "$in" -w "$d/cap" --compress=zstd -C 30k -W 2 2>/dev/null
t_expect_eq "-C -W 2 --compress=zstd: two files" "cap0 cap1" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
t_check "-C -W 2 --compress=zstd: both valid" sh -c \
    "zstd -tq '$d/cap0' && zstd -tq '$d/cap1' && '$TCPDUMP' -r '$d/cap0' -w /dev/null 2>/dev/null && '$TCPDUMP' -r '$d/cap1' -w /dev/null 2>/dev/null"

# -z runs on each finished file: here gzip over a zstd file.
d=$TMPDIR/z
mkdir "$d"
"$TCPDUMP" -r "$in" -w "$d/cap" --compress=zstd -C 50k -z gzip 2>/dev/null
# tcpdump does not wait for its -z children (nor does stock's); gzip
# removes its input once the .gz is complete.  At most 20 s: on a loaded
# machine starting gzip alone has taken more than 5.
i=0
while { [ -f "$d/cap" ] || [ ! -f "$d/cap.gz" ]; } && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -f "$d/cap.gz" ] && gzip -dc "$d/cap.gz" | zstd -tq; then
	t_ok "-z gzip runs on the finished, complete zstd file"
else
	t_fail "-z gzip: $(ls "$d")"
fi

# -U: every packet is flushed as its own block (zstd frame); the
# initial flush after the file header makes one more.
pf=$PCAPS/print-flags.pcap
"$TCPDUMP" -U -r "$pf" -w "$TMPDIR/u.zst" --compress=zstd 2>/dev/null
frames=$(zstd -l "$TMPDIR/u.zst" 2>/dev/null | awk 'NR == 2 { print $1 }')
t_expect_eq "-U --compress=zstd: one frame per packet, plus the header" 11 "$frames"
"$TCPDUMP" -r "$pf" -w "$TMPDIR/pf.pcap" 2>/dev/null
t_check "-U --compress=zstd round-trips" sh -c \
    "zstd -dcq '$TMPDIR/u.zst' | cmp - '$TMPDIR/pf.pcap'"

# Filters and -s apply as without --compress.
"$TCPDUMP" -r "$in" -s 100 -w "$TMPDIR/f.pcap" 'udp and port 7000' 2>/dev/null
"$TCPDUMP" -r "$in" -s 100 -w "$TMPDIR/f.gz" --compress=gzip 'udp and port 7000' 2>/dev/null
t_check "-s 100 and a filter with --compress=gzip" sh -c \
    "gzip -dc '$TMPDIR/f.gz' | cmp - '$TMPDIR/f.pcap'"
n=$("$API" read "$TMPDIR/f.gz" | sed -n 1p)
if [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]; then
	t_ok "the filter kept $n of $total packets"
else
	t_fail "the filter kept $n of $total packets"
fi

# An empty capture is a valid compressed file holding the file header.
"$TCPDUMP" -r "$in" -w "$TMPDIR/e.pcap" 'port 1' 2>/dev/null
t_expect_eq "the empty plain capture is a 24-byte file header" 24 "$(wc -c <"$TMPDIR/e.pcap")"
for c in $CODECS; do
	"$TCPDUMP" -r "$in" -w "$TMPDIR/e.$c" --compress=$c 'port 1' 2>/dev/null
	decompress $c "$TMPDIR/e.$c" >"$TMPDIR/e.back" 2>/dev/null
	t_check "empty capture, $c: the tool gives the file header" \
	    cmp "$TMPDIR/e.back" "$TMPDIR/e.pcap"
	out=$("$API" read "$TMPDIR/e.$c")
	t_expect_eq "empty capture, $c: libpcap reads 0 packets" 0 "$out"
done

# A full disk: a clear error, the number of packets lost, exit status 1.
if [ -w /dev/full ]; then
	err=$("$TCPDUMP" -r "$in" -w /dev/full --compress=zstd 2>&1)
	rc=$?
	case "$rc $err" in
	"1 "*"/dev/full: error writing compressed savefile: No space left on device ($total packets lost)"*)
		t_ok "-w /dev/full: exit 1, \"$(echo "$err" | tail -1)\"" ;;
	*)	t_fail "-w /dev/full: exit $rc: $err" ;;
	esac
else
	t_skip "-w /dev/full" "no /dev/full"
fi

# Command-line errors.
expect_error "unknown codec" 'unknown compression "brotli"' \
    -r "$in" -w "$TMPDIR/x" --compress=brotli
expect_error "level out of range" "compression level 99 out of range for zstd (-100..19)" \
    -r "$in" -w "$TMPDIR/x" --compress=zstd:99
expect_error "bad level" 'invalid compression level "fast" for gzip' \
    -r "$in" -w "$TMPDIR/x" --compress=gzip:fast
expect_error "--compress without -w" "--compress cannot be used without -w" \
    -r "$in" --compress=lz4
# The master series' libpcap (tests/master/topic.sh) is offered no lzop
# container at all; ours knows it, with or without liblzo2.
if [ -n "$SLUICE_MASTER_SERIES" ]; then
	expect_error "lzo, unknown to the master series' libpcap" \
	    'unknown compression "lzo" (known: none, zstd, lz4, gzip)' \
	    -r "$in" -w "$TMPDIR/x" --compress=lzo
else
	case $CODECS in
	*lzo*) ;;
	*) expect_error "lzo when libpcap has no LZO" 'not supported by this build' \
	    -r "$in" -w "$TMPDIR/x" --compress=lzo ;;
	esac
fi

t_done
