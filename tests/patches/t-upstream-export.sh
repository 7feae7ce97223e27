#!/bin/sh
#
# The upstream export (sluice-patchq upstream): per topic of
# patches/COMPONENT/topics, a cover letter and mail-ready patches whose
# commits add the new files they need.  Applied to the pristine tarball
# with git am, it gives exactly the tree the queue and the overlay give;
# our Upstream-Status trailers and our project's name stay out of it;
# subjects keep to tcpdump's 50 characters; a topics file that forgets a
# patch or a file, or places one twice, is refused.  That every prefix
# builds is tests/export/t-export-builds.sh.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd git

repo=$TMPDIR/repo
patch_queue_copy "$repo"
patchq=$repo/build-aux/sluice-patchq

for comp in libpcap tcpdump; do
	out=$TMPDIR/export-$comp
	if ! sh "$patchq" upstream "$comp" "$out" >"$TMPDIR/log" 2>&1; then
		t_fail "$comp: the export failed: $(cat "$TMPDIR/log")"
		continue
	fi
	n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$repo/patches/$comp/series" | wc -l)
	t_expect_eq "$comp: the export has every patch of the series" \
	    "$n" "$(wc -l <"$out/series")"
	topics=$(sed -n 's/^topic //p' "$repo/patches/$comp/topics" |
	    awk '{ printf "%02d-%s ", NR, $1 }')
	t_expect_eq "$comp: one directory per topic, in order" \
	    "$topics" "$(cd "$out" && ls -d [0-9][0-9]-* | tr '\n' ' ')"

	patches=$(sed "s|^|$out/|" "$out/series")
	# shellcheck disable=SC2086 # the patch files, one word each
	t_expect_eq "$comp: no Upstream-Status trailer reaches upstream" \
	    "" "$(grep -l '^Upstream-Status:' $patches)"
	# shellcheck disable=SC2086
	t_expect_eq "$comp: every patch is signed off" \
	    "" "$(grep -L '^Signed-off-by: ' $patches)"
	# shellcheck disable=SC2086
	t_expect_eq "$comp: no subject is longer than 50 characters" \
	    "" "$(patch_subjects $patches | awk 'length > 50')"
	# The authors' name stays (From:, Signed-off-by:, copyright lines);
	# no text upstream receives names our project otherwise.
	t_expect_eq "$comp: no text names our project" "" \
	    "$(cat "$out"/*/*.patch | grep -i sluice | grep -v 'sluice developers')"
	t_expect_eq "$comp: every cover letter is filled in" \
	    "" "$(grep -l '\*\*\* [A-Z]* HERE \*\*\*' "$out"/*/0000-cover-letter.patch)"
	t_expect_eq "$comp: the cover letters carry the topics' subjects" \
	    "$(sed -n 's/^subject: //p' "$repo/patches/$comp/topics")" \
	    "$(patch_subjects "$out"/*/0000-cover-letter.patch)"
	t_expect_eq "$comp: the patches are numbered within their topic" \
	    "[PATCH $comp 1/" \
	    "$(sed -n 's/^Subject: \(\[PATCH [a-z]* 1\/\).*/\1/p' "$(sed -n "1s|^|$out/|p" "$out/series")")"

	# Applied as upstream would, the export gives the queue's tree.
	sh "$patchq" pristine "$comp" "$TMPDIR/applied-$comp" >/dev/null 2>&1 &&
	    sh "$patchq" import "$comp" "$TMPDIR/queue-$comp" >/dev/null 2>&1
	ok=yes
	while read -r p; do
		git -C "$TMPDIR/applied-$comp" -c user.name=t -c user.email=t@t \
		    am -q "$out/$p" </dev/null >"$TMPDIR/log" 2>&1 ||
		    { t_fail "$comp: $p does not apply: $(cat "$TMPDIR/log")"; ok=no; break; }
	done <"$out/series"
	if [ $ok = yes ]; then
		if diff -r -x .git "$TMPDIR/queue-$comp" "$TMPDIR/applied-$comp" >"$TMPDIR/diff"; then
			t_ok "$comp: the applied export is the queue's tree with every new file"
		else
			t_fail "$comp: the applied export differs from the queue's tree"
			head -20 "$TMPDIR/diff" | sed 's/^/#   /'
		fi
		# Every new file but those only the master series places.
		master_only=$repo/patches/master/$comp/master-only
		[ -f "$master_only" ] || master_only=/dev/null
		t_expect_eq "$comp: each new file is added by one commit" \
		    "$(cd "$repo/$comp" && find . -type f | sed 's|^\./||' |
		        grep -cvxF -f "$master_only")" \
		    "$(git -C "$TMPDIR/applied-$comp" log --diff-filter=A --name-only \
		        --format= upstream..HEAD | grep -c .)"
	fi
done

# What the export adds per commit is what bisecting builds; a few
# placements stated here, so that a topics edit that moves them shows.
out=$TMPDIR/export-libpcap
t_expect_eq "libpcap: the ERSPAN decapsulator comes with its build commit" \
    "pcap-erspan.c pcap-erspan.h " \
    "$(sed -n 's/^ create mode 100644 //p' "$out"/02-erspan/0001-*.patch | tr '\n' ' ')"
t_check "libpcap: the implementation commit adds sf-writer.c" \
    grep -q '^ create mode 100644 sf-writer.c$' "$out"/03-savefile-options/0008-build-*.patch
t_check "libpcap: the LZO commit adds sf-compress-lzo.c" \
    grep -q '^ create mode 100644 sf-compress-lzo.c$' "$out"/05-lzo/0001-*.patch

# A topics file that does not account for the series is refused before
# anything is written.
topics=$repo/patches/libpcap/topics
cp "$topics" "$TMPDIR/topics.good"
refused() {
	name=$1
	want=$2
	rm -rf "$TMPDIR/bad-out"
	err=$(sh "$patchq" upstream libpcap "$TMPDIR/bad-out" 2>&1)
	rc=$?
	t_expect_eq "$name" "1 sluice-patchq: $want" "$rc $err"
	t_check "$name: nothing written" test ! -e "$TMPDIR/bad-out"
	cp "$TMPDIR/topics.good" "$topics"
}
sed -i '/^0003$/d' "$topics"
refused "a patch left out" \
    "$topics must list every patch of the series once, in its order"
sed -i 's/^0004$/0004 pcap-erspan.h/' "$topics"
refused "a file added twice" "$topics adds these files more than once: pcap-erspan.h"
sed -i 's/ sf-compress-lzo.c$//' "$topics"
refused "a file left out" "$topics adds no commit for these new files: sf-compress-lzo.c"
sed -i 's/^0006$/0006 no-such-file.c/' "$topics"
refused "a file that does not exist" \
    "$topics names files that are not in libpcap/: no-such-file.c"
t_done
