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

# The same for the master series, whose later pull requests change
# files that earlier ones place: import commits those files as they
# are before the series, and export gives back the patches and the
# files as they were.
snapshots=${SLUICE_UPSTREAM_DIR:-$SLUICE_SRCDIR/../shared/upstream}
if [ -d "$snapshots" ]; then
	wt=$TMPDIR/pq-master
	if ! SLUICE_BASE=master SLUICE_UPSTREAM_DIR=$snapshots \
	    sh "$repo/build-aux/sluice-patchq" import libpcap "$wt" >"$TMPDIR/log" 2>&1; then
		t_fail "libpcap master: import"
		sed 's/^/#   /' "$TMPDIR/log"
	else
		t_check "libpcap master: import commits the files later patches change" \
		    sh -c "git -C '$wt' ls-tree --name-only upstream | grep -qx sf-compress-write.c"
		if SLUICE_BASE=master SLUICE_UPSTREAM_DIR=$snapshots \
		    sh "$repo/build-aux/sluice-patchq" export libpcap "$wt" >"$TMPDIR/log" 2>&1 &&
		    diff -r "$SLUICE_SRCDIR/patches/master" "$repo/patches/master" >"$TMPDIR/diff" &&
		    diff -r "$SLUICE_SRCDIR/libpcap" "$repo/libpcap" >>"$TMPDIR/diff"; then
			t_ok "libpcap master: export of an unchanged queue is byte-identical"
		else
			t_fail "libpcap master: export changed the series or our files"
			cat "$TMPDIR/log" "$TMPDIR/diff" | head -30 | sed 's/^/#   /'
		fi
		# A line that a later pull request adds to a file with lzop
		# parts, edited in that pull request's commit, goes back to
		# the patch and, as a diff, to our file, whose lzop parts stay.
		old_line='	 \* Unless a size was set, rungs scale blocks up to SFC_MAX_BLOCK (what'
		new_line='	 * Unless a size was chosen, rungs scale blocks up to SFC_MAX_BLOCK (what'
		lzo_before=$(grep -c SFC_LZOP_CONTAINER "$repo/libpcap/sf-compress-write.c")
		adapt=$(git -C "$wt" log --format=%H --grep='^savefile: Let the compression level adapt$' upstream..HEAD)
		sed -i "s/^$old_line\$/$new_line/" "$wt/sf-compress-write.c"
		if git -C "$wt" -c user.name=t -c user.email=t@t commit -q -a --fixup="$adapt" &&
		    GIT_SEQUENCE_EDITOR=true git -C "$wt" -c user.name=t -c user.email=t@t \
		    rebase -q -i --autosquash upstream >"$TMPDIR/log" 2>&1 &&
		    SLUICE_BASE=master SLUICE_UPSTREAM_DIR=$snapshots \
		    sh "$repo/build-aux/sluice-patchq" export libpcap "$wt" >>"$TMPDIR/log" 2>&1; then
			t_check "libpcap master: the edit is in the adaptive level's patch" \
			    grep -qxF "+$new_line" "$repo"/patches/master/libpcap/00*-savefile-Let-the-compression-level-adapt.patch
			t_check "libpcap master: ... and in our file, whose lzop parts stay" \
			    sh -c "grep -qxF '$new_line' '$repo/libpcap/sf-compress-write.c' &&
			        test \"\$(grep -c SFC_LZOP_CONTAINER '$repo/libpcap/sf-compress-write.c')\" = '$lzo_before'"
		else
			t_fail "libpcap master: an edit in a later pull request's commit exports"
			sed 's/^/#   /' "$TMPDIR/log" | head -20
		fi
	fi
else
	t_skip "libpcap master: round trip" "the snapshots are absent ($snapshots)"
fi

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
