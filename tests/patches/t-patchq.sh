#!/bin/sh
#
# The patch queue round trip: importing a series into git and exporting it
# again without changes gives back the same files, byte for byte (so a
# refresh never churns the series), and export refuses a commit that
# creates a file.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd git

# A scratch copy of the repository parts the tool reads and writes.
repo=$TMPDIR/repo
patch_queue_copy "$repo"

for comp in libpcap tcpdump; do
	wt=$TMPDIR/pq-$comp
	if ! sh "$repo/build-aux/sluice-patchq" import "$comp" "$wt" >"$TMPDIR/log" 2>&1; then
		t_fail "$comp: import"
		sed 's/^/#   /' "$TMPDIR/log"
		continue
	fi
	n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$repo/patches/$comp/series" | wc -l)
	t_expect_eq "$comp: import makes one commit per patch" \
	    "$n" "$(git -C "$wt" rev-list --count upstream..HEAD)"
	if ! sh "$repo/build-aux/sluice-patchq" export "$comp" "$wt" >"$TMPDIR/log" 2>&1; then
		t_fail "$comp: export"
		sed 's/^/#   /' "$TMPDIR/log"
		continue
	fi
	if diff -r "$SLUICE_SRCDIR/patches/$comp" "$repo/patches/$comp" >"$TMPDIR/diff"; then
		t_ok "$comp: export of an unchanged queue is byte-identical"
	else
		t_fail "$comp: export changed the series"
		head -30 "$TMPDIR/diff" | sed 's/^/#   /'
	fi
done

# A commit that adds a file is refused, and the series is left alone.
wt=$TMPDIR/pq-tcpdump
if [ -d "$wt/.git" ]; then
	cp -R "$repo/patches" "$TMPDIR/patches.before"
	echo "int x;" >"$wt/new-file.c"
	git -C "$wt" add new-file.c
	git -C "$wt" -c user.name=t -c user.email=t@t commit -q -m "Add a file"
	if sh "$repo/build-aux/sluice-patchq" export tcpdump "$wt" >"$TMPDIR/log" 2>&1; then
		t_fail "export accepted a commit that creates a file"
	elif grep -q "create files.*new-file.c" "$TMPDIR/log" &&
	    diff -r "$TMPDIR/patches.before" "$repo/patches" >/dev/null; then
		t_ok "export refuses a commit that creates a file and leaves the series alone"
	else
		t_fail "export failed without naming new-file.c or changed the series: $(cat "$TMPDIR/log")"
	fi
fi
t_done
