#!/bin/sh
#
# tcpdump -C 1 -W 4 --compress killed with SIGKILL 20 times, each time at
# a different moment of a live capture, half of them on a quiet link: no
# file is empty (the file header is written as the file is opened, in a
# block of its own, before the capture starts) but one that a rotation
# had just created, a fraction of a millisecond before that write ends;
# and every file reads to its end.  The file open at the kill was
# written with O_DIRECT, so the write() the kill comes in is finished,
# not cut (see t-sigkill.sh), and the file ends at a page.  A file that
# does not is one that tcpdump rotated away from, over -C's size, and
# that libpcap's closing thread cut to its end: a kill after that and
# before the next file is created finds no file open.  Where the file
# system of $TMPDIR keeps O_DIRECT writes in memory or refuses them
# (tmpfs), Linux may stop that write at a page boundary: then that file
# reads to the block the kill cut short, and the reader says so in one
# sentence.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/live/netns.sh"
. "$SLUICE_SRCDIR/tests/writer-live/lib-writer.sh"

ROUNDS=20
netns_live_setup
if direct_io_works "$TMPDIR"; then
	direct=1
else
	direct=0
	t_skip "kills during O_DIRECT writes" \
	    "the file system of $TMPDIR keeps O_DIRECT writes in memory or refuses them (tmpfs): a kill may cut a last block"
fi
cut_short='^sluice-seqcheck: .*: truncated .* compressed file: it ends'
cut_short="$cut_short inside the block starting at byte offset [0-9]*"
megabytes=1	# -C
kept=4		# -W
limit=$((megabytes * 1000000))
empty=0
unreadable=0
cut=0
files=0
unaligned=0
fileless=0
between=0
creating=0
# A different moment each round, from a seed printed for reruns.
seed=$(( $$ % 10 ))
echo "# seed $seed"
round=0
while [ $round -lt $ROUNDS ]; do
	round=$((round + 1))
	codec=$(echo "zstd lz4 gzip" | cut -d' ' -f$(( round % 3 + 1 )))
	# Every other round on a quiet link, killed as soon as tcpdump is
	# listening, when its file has just been opened; the others rotate
	# through the files at 40,000 frames/s, killed 0.1 to 1.2 s in.
	if [ $((round % 2)) = 1 ]; then
		rate=40000
		delay=$(( 1 + (seed + round * 7) % 12 ))	# tenths of a second
	else
		rate=0
		delay=0
	fi
	d=$TMPDIR/r$round
	mkdir "$d"
	start_tcpdump "kill$round" -s 2048 -B 16384 -C $megabytes -W $kept \
	    --compress="$codec" -w "$d/cap"
	gen=
	if [ $rate != 0 ]; then
		netns_exec "$NS_A" "$GEN" --type http --count 48000 \
		    --rate $rate --iface "$VETH_A" 2>/dev/null &
		gen=$!
	fi
	[ $delay = 0 ] || sleep "$((delay / 10)).$((delay % 10))"
	netns_stop "$TD" KILL 20
	# The sender stops by itself after 1.2 s; the next round must be
	# quiet.
	[ -z "$gen" ] || wait "$gen"
	say="# round $round ($codec, $rate/s, $delay/10 s)"
	# The file open at the kill ends at a page; a closed one need not,
	# and is over the limit.
	n_files=0
	aligned=0
	small=0
	created=
	for f in "$d"/cap*; do
		[ -e "$f" ] || continue
		files=$((files + 1))
		n_files=$((n_files + 1))
		size=$(stat -c %s "$f")
		if [ "$size" = 0 ]; then
			# Newer than the file before it in the rotation,
			# which was left for it: over the limit, and the
			# file after it older or not there yet.
			n=${f##*/cap}
			before=$d/cap$(( (n + kept - 1) % kept ))
			after=$d/cap$(( (n + 1) % kept ))
			if [ -z "$created" ] && [ -e "$before" ] &&
			    [ "$(stat -c %s "$before")" -gt $limit ] &&
			    { [ ! -e "$after" ] || [ "$after" -ot "$before" ]; }; then
				created=$f
				creating=$((creating + 1))
				echo "$say: $f is empty, killed as the rotation created it"
			else
				empty=$((empty + 1))
				echo "$say: $f is empty"
			fi
			continue
		fi
		if [ $((size % 4096)) = 0 ]; then
			aligned=$((aligned + 1))
		elif [ "$size" -le $limit ]; then
			small=1
			unaligned=$((unaligned + 1))
			echo "$say: $f ends inside a page, at byte $size, and is not over -C's size"
		fi
		if "$CHK" "$f" >"$f.chk" 2>&1; then
			continue
		fi
		if [ "$(grep -c '^sluice-seqcheck: ' "$f.chk")" = 1 ] &&
		    grep -q "$cut_short" "$f.chk"; then
			cut=$((cut + 1))
			echo "$say: $f: the kill cut its last block"
		else
			unreadable=$((unreadable + 1))
			echo "$say: $f: $(grep '^sluice-seqcheck: ' "$f.chk" | head -1)"
		fi
	done
	if [ $n_files = 0 ]; then
		fileless=$((fileless + 1))
		echo "$say: no file"
	elif [ $aligned = 0 ] && [ $small = 0 ] && [ -z "$created" ]; then
		between=$((between + 1))
		echo "$say: killed between two files:$(cd "$d" && stat -c ' %n %s' cap[0-9])"
	fi
done
echo "# summary: $ROUNDS kills, $files files, $empty empty, $cut cut by the kill, $unreadable unreadable, $between between two files, $creating as one was created"
t_expect_eq "every round leaves a file" 0 "$fileless"
t_expect_eq "no file is empty but one a rotation had just created" 0 "$empty"
# A file is empty for a fraction of a millisecond: a file whose header
# came late would be caught at most kills.
t_check "at most 2 kills catch a file as it is created ($creating)" \
    test "$creating" -le 2
t_expect_eq "every file reads to its end, or to the block the kill cut" \
    0 "$unreadable"
if [ $direct = 1 ]; then
	t_expect_eq "no block is cut by the kill (O_DIRECT)" 0 "$cut"
	t_expect_eq "the file open at each kill ends at a page (O_DIRECT)" \
	    0 "$unaligned"
	# A new file is created as soon as the old one is handed over:
	# a capture with no file open is rare.
	t_check "at most 2 kills find no file open ($between)" \
	    test "$between" -le 2
fi
t_done
