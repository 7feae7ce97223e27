#!/bin/sh
#
# Hygiene of the patch series, for each component:
# - series lists exactly the NNNN-*.patch files, in sorted order;
# - every patch is git format-patch output with a zero commit id, a
#   subject, a body that says why, Upstream-Status: with a known value, and
#   Signed-off-by:; the master series' patches (patches/master/) too;
# - no patch creates a file (new files are overlay files) and every patch
#   applies, in order, with fuzz 0 (sluice-prepare would refuse otherwise);
# - patches and overlay files are ASCII and add no trailing whitespace;
# - no overlay file shadows a file of the upstream tarball.

. "$SLUICE_SRCDIR/tests/lib.sh"

pins=$SLUICE_SRCDIR/patches/SHA256SUMS

# check_series LABEL DIR: the series of DIR lists exactly its patches, and
# each patch is well-formed.
check_series() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$2/series" >"$TMPDIR/series"
	(cd "$2" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | LC_ALL=C sort) >"$TMPDIR/files"
	if cmp -s "$TMPDIR/series" "$TMPDIR/files"; then
		t_ok "$1: series lists exactly the patch files, in order"
	else
		t_fail "$1: series and patch files disagree"
		diff "$TMPDIR/series" "$TMPDIR/files" | sed 's/^/#   /'
	fi

	while read -r p; do
		f=$2/$p
		bad=
		head -1 "$f" | grep -q '^From 0\{40\} Mon Sep 17 00:00:00 2001$' ||
		    bad="$bad not-format-patch-with-zero-commit"
		grep -q '^Subject: \[PATCH\] ' "$f" || bad="$bad no-[PATCH]-subject"
		subj=$(sed -n 's/^Subject: \[PATCH\] //p' "$f")
		[ ${#subj} -le 72 ] || bad="$bad subject-longer-than-72"
		grep -Eq '^Upstream-Status: (Pending|Submitted \[.+\]|Backport \[.+\]|Denied|Inactive-Upstream( \[.+\])?|Inappropriate \[.+\])$' "$f" ||
		    bad="$bad no-valid-Upstream-Status"
		grep -Eq '^Signed-off-by: .+ <.+>$' "$f" || bad="$bad no-Signed-off-by"
		# The body (between the subject and the "---") says why.
		body=$(awk '/^Subject:/ { s = 1; next } s && /^---$/ { exit } s' "$f" |
		    grep -Ev '^(Upstream-Status|Signed-off-by):' | grep -c '[a-z]')
		[ "$body" -ge 2 ] || bad="$bad no-body"
		grep -q '^--- /dev/null' "$f" && bad="$bad creates-a-file"
		LC_ALL=C grep -q '[^[:print:][:space:]]' "$f" && bad="$bad non-ASCII"
		grep -Eq '^\+.*[[:space:]]$' "$f" && bad="$bad trailing-whitespace"
		if [ -z "$bad" ]; then
			t_ok "$1: $p is well-formed"
		else
			t_fail "$1: $p:$bad"
		fi
	done <"$TMPDIR/series"
}

for comp in libpcap tcpdump; do
	case $comp in
	libpcap) version=$SLUICE_LIBPCAP_VERSION ;;
	tcpdump) version=$SLUICE_TCPDUMP_VERSION ;;
	esac
	dir=$SLUICE_SRCDIR/patches/$comp

	t_check "$comp: a SHA-256 is pinned for the $version tarball" \
	    grep -Eq "^[0-9a-f]{64}  ${comp}[-_]$version" "$pins"

	check_series "$comp" "$dir"
	if [ -d "$SLUICE_SRCDIR/patches/master/$comp" ]; then
		check_series "$comp master" "$SLUICE_SRCDIR/patches/master/$comp"
	fi

	# Overlay files must be new files.
	src=$SLUICE_BUILDDIR/src/stock-$comp-$version
	if [ -d "$src" ]; then
		shadow=
		if [ -d "$SLUICE_SRCDIR/$comp" ]; then
			shadow=$(cd "$SLUICE_SRCDIR/$comp" && find . -type f | sed 's|^\./||' |
			    while read -r o; do [ -e "$src/$o" ] && echo "$o"; done)
		fi
		if [ -z "$shadow" ]; then
			t_ok "$comp: no overlay file shadows an upstream file"
		else
			t_fail "$comp: overlay files shadow upstream files: $shadow"
		fi
	else
		t_skip "$comp: overlay shadowing" "no stock tree at $src (make build-stock)"
	fi

	# Overlay sources are ASCII without trailing whitespace, like upstream.
	if [ -d "$SLUICE_SRCDIR/$comp" ]; then
		offenders=$(cd "$SLUICE_SRCDIR/$comp" && find . -type f \( -name '*.[ch]' -o -name '*.3pcap*' -o -name '*.in' \) |
		    while read -r o; do
			if LC_ALL=C grep -q '[^[:print:][:space:]]' "$o" ||
			    grep -q '[[:space:]]$' "$o"; then echo "$o"; fi
		    done)
		if [ -z "$offenders" ]; then
			t_ok "$comp: overlay sources are ASCII with no trailing whitespace"
		else
			t_fail "$comp: non-ASCII or trailing whitespace in:$offenders"
		fi
	fi
done

# Every patch applies to the pristine tree in series order with fuzz 0:
# sluice-prepare refuses anything else, so preparing a scratch tree checks
# it for real.
for comp in libpcap tcpdump; do
	case $comp in
	libpcap) version=$SLUICE_LIBPCAP_VERSION ;;
	tcpdump) version=$SLUICE_TCPDUMP_VERSION ;;
	esac
	t_check "$comp: the series applies to the pristine $version tree with fuzz 0" \
	    sh "$SLUICE_SRCDIR/build-aux/sluice-prepare" "$comp" "$version" \
	    "$(cat "$SLUICE_BUILDDIR/src/.$comp.tarball")" \
	    "$SLUICE_SRCDIR" "$TMPDIR/prep"
done
t_done
