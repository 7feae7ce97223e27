#!/bin/sh
#
# "make export-upstream BASE=master DIR=D" writes the master series as
# mail-ready pull requests: D/libpcap/NN-name/ and D/tcpdump/NN-name/,
# one folder per topic of patches/master/COMP/topics, in order, each
# with its cover letter (0000-cover-letter.patch, the topic's subject and
# text) and its commits as git format-patch files without our
# Upstream-Status trailers.  Nothing in them names our project except as
# the authors' affiliation (the From:, Signed-off-by: and shortlog lines),
# and nothing knows the lzop container, which is ours only.
# That git am applies them in order to the pinned snapshots is
# t-series.sh's to check.  BASE=release writes today's series the same
# way, without the files only the master series places.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd git

snapshots=${SLUICE_UPSTREAM_DIR:-$SLUICE_SRCDIR/../shared/upstream}
if [ ! -d "$snapshots" ]; then
	echo "1..0 # SKIP the snapshots are absent ($snapshots)"
	exit 77
fi

out=$TMPDIR/out
t_check "make export-upstream BASE=master writes the series" \
    make -s -C "$SLUICE_BUILDDIR" export-upstream BASE=master DIR="$out"
for comp in libpcap tcpdump; do
	topics=$SLUICE_SRCDIR/patches/master/$comp/topics
	want=$(awk '/^topic / { n++; printf "%02d-%s\n", n, $2 }' "$topics")
	got=$(cd "$out/$comp" && ls -d [0-9][0-9]-* 2>/dev/null)
	t_expect_eq "$comp: one folder per pull request, in order" "$want" "$got"
	for d in $got; do
		subject=$(awk -v t="${d#??-}" '$1 == "topic" { on = ($2 == t) }
		    on && $1 == "subject:" { sub(/^subject: /, ""); print; exit }' "$topics")
		t_check "$comp/$d: the cover letter has the topic's subject" \
		    grep -qF "] $subject" "$out/$comp/$d/0000-cover-letter.patch"
	done
	patches=$(find "$out/$comp" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
	# shellcheck disable=SC2086 # the patch files, one word each
	t_expect_eq "$comp: every patch is signed off" "" "$(grep -L '^Signed-off-by: ' $patches)"
	# shellcheck disable=SC2086
	t_expect_eq "$comp: no subject is longer than 50 characters" "" \
	    "$(patch_subjects $patches | awk 'length > 50')"
	t_check "$comp: no patch keeps an Upstream-Status trailer" \
	    sh -c "! grep -rq '^Upstream-Status:' '$out/$comp'"
	# What names us, other than the authors' affiliation: as the
	# authors of commits, and as the copyright holders of new files.
	named=$(grep -rin sluice "$out/$comp" |
	    grep -v ':From: sluice developers <sluice@example.org>$' |
	    grep -v ':Signed-off-by: sluice developers <sluice@example.org>$' |
	    grep -v ':sluice developers ([0-9]*):$' |
	    grep -v ':+\( \*\|#\|dnl\|\.\\"\) Copyright (c) 20[0-9][0-9] The sluice developers\.  All rights reserved\.$')
	t_expect_eq "$comp: nothing names the project but the authors' affiliation" "" "$named"
	# Upstream is offered no lzop container (liblzo2 is GPL): its parts
	# of our C files are left out (sluice-patchq's place_file).
	t_expect_eq "$comp: nothing knows lzop or LZO" "" \
	    "$(grep -rli 'lzo' "$out/$comp")"
	# The pull requests' symbols are ours: upstream sees each part
	# as the commit that adds it, never a guard.
	t_expect_eq "$comp: no pull request's symbol is left in the code" "" \
	    "$(grep -rl 'SFC_WRITER_THREAD\|SFC_ADAPTIVE_LEVEL' "$out/$comp")"
done
# The writing side's three pull requests each add their own files, and
# the first knows nothing of the two after it.
lp=$out/libpcap
files_of() {
	cat "$lp"/$1/0[0-9][0-9][0-9]-*.patch 2>/dev/null |
	    sed -n 's/^ create mode [0-9]* //p' | LC_ALL=C sort -u | tr '\n' ' '
}
t_expect_eq "libpcap savefile-options adds no file of the writer thread or the adaptive level" "" \
    "$(files_of '*-savefile-options' | tr ' ' '\n' | grep 'sf-writer\|thread\|jobs\|close-async\|adapt\|ladders')"
t_expect_eq "libpcap writer-thread adds the writer thread's files" \
    "sf-writer.c " \
    "$(files_of '*-writer-thread' | tr ' ' '\n' | grep -v '3pcap' | tr '\n' ' ')"
t_expect_eq "libpcap adaptive-level adds the controller and its ladders" \
    "sf-compress-adapt.c " \
    "$(files_of '*-adaptive-level')"
t_check "libpcap savefile-options' pcap.h has no writer ring and no levels" \
    sh -c "! grep -q 'ring_size\|nlevels\|set_writer' '$lp'/*-savefile-options/0001-*.patch"
# A later pull request adds to an earlier one's file as an ordinary
# diff (sluice-patchq's stage_file): savefile-options creates the writer
# without the writer thread, writer-thread adds its glue, and
# read-compressed creates each codec's file with its decoder only.
changes_of() {
	cat "$lp"/$1/0[0-9][0-9][0-9]-*.patch 2>/dev/null |
	    sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | LC_ALL=C sort -u | tr '\n' ' '
}
t_check "libpcap savefile-options creates sf-compress-write.c without the writer thread's glue" \
    sh -c "grep -q '^ create mode 100644 sf-compress-write.c$' '$lp'/*-savefile-options/0*.patch &&
        ! grep -h '^+' '$lp'/*-savefile-options/0*.patch | grep -q 'pcapint_writer_start'"
t_check "libpcap writer-thread adds the glue to sf-compress-write.c and sf-compress.h" \
    sh -c "echo '$(changes_of '*-writer-thread')' | grep -q 'sf-compress-write.c .*sf-compress.h ' &&
        grep -h '^+' '$lp'/*-writer-thread/0*.patch | grep -q 'pcapint_writer_start'"
t_check "libpcap read-compressed creates sf-compress-zstd.c without an encoder, savefile-options adds it" \
    sh -c "! grep -h '^+' '$lp'/*-read-compressed/0*.patch | grep -q 'pcapint_sfc_zstd_encoder' &&
        grep -h '^+' '$lp'/*-savefile-options/0*.patch | grep -q 'pcapint_sfc_zstd_encoder ='"
t_expect_eq "our files keep no guard of a pull request" "" \
    "$(grep -rl 'SFC_WRITER_THREAD\|SFC_ADAPTIVE_LEVEL\|SFC_SAVEFILE_OPTIONS' "$SLUICE_SRCDIR/libpcap")"
# The size a maintainer can review (#41): lines of C (.c and .h) the
# libpcap series adds, in all and per pull request, and its new files.
c_added() {
	cat "$@" | awk '/^diff --git / { c = ($3 ~ /\.[ch]$/) }
	    /^\+\+\+ / { next } /^\+/ && c { n++ } END { print n + 0 }'
}
total=$(c_added "$lp"/[0-9][0-9]-*/0[0-9][0-9][0-9]-*.patch)
t_check "libpcap: the series adds at most 6,500 lines of C ($total)" test "$total" -le 6500
for d in "$lp"/[0-9][0-9]-*/; do
	n=$(c_added "$d"0[0-9][0-9][0-9]-*.patch)
	t_check "libpcap $(basename "$d"): at most 2,000 lines of C ($n)" test "$n" -le 2000
done
new_c=$(cat "$lp"/[0-9][0-9]-*/0[0-9][0-9][0-9]-*.patch |
    sed -n 's/^ create mode [0-9]* \(.*\.[ch]\)$/\1/p' | LC_ALL=C sort -u | wc -l)
t_check "libpcap: at most 12 new C files ($new_c)" test "$new_c" -le 12
# Our file changed where a later pull request's diff applies (a line
# that the writer thread's pull request adds, and the adaptive level's
# has as context): the diff no longer comes off, and the export says
# which patch and file, and stops.
repo=$TMPDIR/repo
patch_queue_copy "$repo"
sed -i 's/pcapint_writer_start(&params/pcapint_writer_start(\&params /' "$repo/libpcap/sf-compress-write.c"
if SLUICE_BASE=master SLUICE_UPSTREAM_DIR=$snapshots sh "$repo/build-aux/sluice-patchq" \
    upstream libpcap "$TMPDIR/stale" >"$TMPDIR/stale.log" 2>&1; then
	t_fail "a file whose later diff does not come off: the export succeeded"
else
	t_check "a file whose later diff does not come off is refused by patch and file" \
	    grep -q "^sluice-patchq: 00[0-9][0-9]-savefile-[-a-zA-Z]*.patch's changes to sf-compress-write.c do not come off libpcap/sf-compress-write.c" "$TMPDIR/stale.log"
fi
# bad_call DESCRIPTION EXPECTED-TEXT MAKE-ARGS...: make fails, saying so.
bad_call() {
	_desc=$1
	_want=$2
	shift 2
	if make -s -C "$SLUICE_BUILDDIR" export-upstream "$@" >"$TMPDIR/err" 2>&1; then
		t_fail "$_desc: make succeeded"
	else
		t_check "$_desc: make fails and says \"$_want\"" grep -qF "$_want" "$TMPDIR/err"
	fi
}
bad_call "without DIR" "name the directory: DIR=" BASE=master
bad_call "with an unknown BASE" "unknown SLUICE_BASE next" BASE=next DIR="$TMPDIR/next"
t_check "BASE=release writes today's series the same way" \
    make -s -C "$SLUICE_BUILDDIR" export-upstream BASE=release DIR="$TMPDIR/release"
t_check "... with its topics' folders" test -s "$TMPDIR/release/libpcap/01-version-extra/0000-cover-letter.patch"
t_check "the release series still has the lzop container in the shared table" \
    grep -rq '^+#ifdef SFC_LZOP_CONTAINER$' "$TMPDIR/release/libpcap"
# Files that only the master series places (patches/master/COMP/
# master-only): in the master export, never in the release's.
for comp in libpcap tcpdump; do
	list=$SLUICE_SRCDIR/patches/master/$comp/master-only
	[ -f "$list" ] || continue
	while read -r f; do
		t_check "$comp: the master export creates the master-only $f" \
		    grep -rqx " create mode 100644 $f" "$out/$comp"
		t_check "$comp: the release export does not" \
		    sh -c "! grep -rqx ' create mode 100644 $f' '$TMPDIR/release/$comp'"
	done <"$list"
done
t_done
