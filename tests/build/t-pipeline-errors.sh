#!/bin/sh
#
# Bad input to the build pipeline gets one clear sentence and a non-zero
# exit, and leaves nothing half-built: a missing tarball, a hash mismatch
# (naming the file and both hashes), a patch that no longer applies
# (naming it), an overlay file that would replace an upstream file, a
# patch that creates a file, a missing build dependency.  And the other
# side: changing one overlay file or patch re-touches only the files it
# changes, so make rebuilds only what depends on them.

. "$SLUICE_SRCDIR/tests/lib.sh"

fetch=$SLUICE_SRCDIR/build-aux/sluice-fetch
prepare=$SLUICE_SRCDIR/build-aux/sluice-prepare
pins=$SLUICE_SRCDIR/patches/SHA256SUMS
v=$SLUICE_LIBPCAP_VERSION
tarball=$(cat "$SLUICE_BUILDDIR/src/.libpcap.tarball")

# expect_fail DESCRIPTION PATTERN COMMAND...: the command fails and says
# something matching PATTERN on stderr.
expect_fail() {
	_d=$1
	_pat=$2
	shift 2
	if "$@" >"$TMPDIR/out" 2>"$TMPDIR/err"; then
		t_fail "$_d: succeeded"
	elif grep -Eq "$_pat" "$TMPDIR/err"; then
		t_ok "$_d"
	else
		t_fail "$_d: message was: $(cat "$TMPDIR/err")"
	fi
}

# A PATH without apt-get, so that fetching cannot fall back to Debian.
nobin=$TMPDIR/noapt
mkdir -p "$nobin"
for t in sh awk sha256sum basename cp mv mkdir mktemp rm cat id; do
	ln -s "$(command -v $t)" "$nobin/$t"
done

mkdir -p "$TMPDIR/empty" "$TMPDIR/cache"
expect_fail "a missing tarball is named, with what to do about it" \
    "libpcap $v not found .*--with-tarball-dir" \
    env PATH="$nobin" sh "$fetch" libpcap "$v" 1.10.5-2 "$pins" "$TMPDIR/empty" "$TMPDIR/cache"

mkdir -p "$TMPDIR/bad"
cp "$tarball" "$TMPDIR/bad/libpcap-$v.tar.xz"
printf 'x' >>"$TMPDIR/bad/libpcap-$v.tar.xz"
want=$(awk -v n="libpcap-$v.tar.xz" '$2 == n { print $1 }' "$pins")
got=$(sha256sum "$TMPDIR/bad/libpcap-$v.tar.xz" | awk '{ print $1 }')
expect_fail "a hash mismatch names the file and both hashes" \
    "libpcap-$v.tar.xz: SHA-256 mismatch: pinned $want, got $got" \
    sh "$fetch" libpcap "$v" 1.10.5-2 "$pins" "$TMPDIR/bad" "$TMPDIR/cache"
t_check "nothing is cached from a mismatching tarball" \
    test -z "$(ls -A "$TMPDIR/cache")"

# The good tarball from the user's directory is found and verified.
mkdir -p "$TMPDIR/good"
ln -s "$tarball" "$TMPDIR/good/$(basename "$tarball")"
t_expect_eq "a good tarball in --with-tarball-dir is used" \
    "$TMPDIR/good/$(basename "$tarball")" \
    "$(sh "$fetch" libpcap "$v" 1.10.5-2 "$pins" "$TMPDIR/good" "$TMPDIR/cache" 2>/dev/null)"

# make -j fetches libpcap and tcpdump from Debian at once, and apt-get
# fails on its locks when another apt-get runs: the fetches take turns.
# The stand-in apt-get hands out the tarball slowly, and fails as apt's
# lock does if another run of it is under way.
fakebin=$TMPDIR/fakeapt
mkdir -p "$fakebin" "$TMPDIR/cache2"
cat >"$fakebin/apt-get" <<EOF
#!/bin/sh
if ! mkdir "$TMPDIR/apt-busy" 2>/dev/null; then
	echo "E: Could not get lock $TMPDIR/apt-busy" >&2
	exit 100
fi
sleep 1
cp "$tarball" libpcap_$v.orig.tar.xz
rmdir "$TMPDIR/apt-busy"
EOF
chmod +x "$fakebin/apt-get"
for i in 1 2; do
	PATH="$fakebin:$PATH" sh "$fetch" libpcap "$v" 1.10.5-2 "$pins" "" \
	    "$TMPDIR/cache2" >"$TMPDIR/fetch$i.out" 2>"$TMPDIR/fetch$i.err" &
	eval "fetch$i=\$!"
done
wait "$fetch1"
rc1=$?
wait "$fetch2"
t_expect_eq "two fetches from Debian at once both succeed, one after the other" \
    "0 0 $TMPDIR/cache2/libpcap_$v.orig.tar.xz $TMPDIR/cache2/libpcap_$v.orig.tar.xz" \
    "$rc1 $? $(cat "$TMPDIR/fetch1.out") $(cat "$TMPDIR/fetch2.out")"
sed 's/^/# fetch: /' "$TMPDIR/fetch1.err" "$TMPDIR/fetch2.err"

# A scratch repository whose overlay and patches we can break.
repo=$TMPDIR/repo
mkdir -p "$repo/patches"
cp -R "$SLUICE_SRCDIR/patches/libpcap" "$repo/patches/"
[ -d "$SLUICE_SRCDIR/libpcap" ] && cp -R "$SLUICE_SRCDIR/libpcap" "$repo/"
mkdir -p "$repo/libpcap"
dest=$TMPDIR/src
if ! sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest" 2>"$TMPDIR/err"; then
	t_fail "preparing a scratch libpcap tree: $(cat "$TMPDIR/err")"
	t_done
fi
tree=$dest/libpcap-$v
# (The build would consume this request for a clean build; see below.)
rm -f "$dest/.libpcap-$v.clean"
snapshot() {
	(cd "$tree" && find . -type f -exec stat -c '%n %Y %s' {} + | LC_ALL=C sort)
}
snapshot >"$TMPDIR/before"
sleep 1

# A patch that no longer applies is named, and the tree is left as it was.
first=$(sed -n 1p "$repo/patches/libpcap/series")
# Change the first non-empty context line after the first hunk header,
# as if upstream had changed that line.
awk '!done && h && /^ [^ ]/ { sub(/^ /, " CHANGED "); done = 1 } /^@@/ { h = 1 } { print }' \
    "$SLUICE_SRCDIR/patches/libpcap/$first" >"$repo/patches/libpcap/$first"
expect_fail "a patch that does not apply is named" \
    "patch $first does not apply to libpcap $v" \
    sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest"
snapshot >"$TMPDIR/after"
t_check "a failed patch leaves the prepared tree untouched" \
    cmp "$TMPDIR/before" "$TMPDIR/after"
cp "$SLUICE_SRCDIR/patches/libpcap/$first" "$repo/patches/libpcap/$first"

echo "/* mine */" >"$repo/libpcap/pcap.c"
expect_fail "an overlay file may not replace an upstream file" \
    "overlay file libpcap/pcap.c would overwrite the upstream file pcap.c" \
    sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest"
rm "$repo/libpcap/pcap.c"

cat >"$repo/patches/libpcap/9999-create.patch" <<'EOP'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
Subject: [PATCH] Create a file

--- /dev/null
+++ b/new.c
@@ -0,0 +1 @@
+int x;
EOP
echo 9999-create.patch >>"$repo/patches/libpcap/series"
expect_fail "a patch may not create a file" \
    "patch 9999-create.patch creates a file" \
    sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest"
rm "$repo/patches/libpcap/9999-create.patch"
cp "$SLUICE_SRCDIR/patches/libpcap/series" "$repo/patches/libpcap/series"
snapshot >"$TMPDIR/after"
t_check "the failures left the prepared tree untouched" \
    cmp "$TMPDIR/before" "$TMPDIR/after"

# A new overlay file: it, and nothing else, appears or changes.
echo "/* an overlay file */" >"$repo/libpcap/sluice-test-overlay.c"
sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest" 2>/dev/null
snapshot >"$TMPDIR/after"
changed=$(diff "$TMPDIR/before" "$TMPDIR/after" | grep '^>' | awk '{ print $2 }' | tr '\n' ' ')
t_expect_eq "adding one overlay file touches only that file" \
    "./sluice-test-overlay.c " "$changed"
t_expect_eq "an unchanged input is a no-op" "" \
    "$(sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest" 2>&1)"
t_check "a change without a header does not ask for a clean build" \
    test ! -e "$dest/.libpcap-$v.clean"

# The upstream Makefiles do not know which objects include a header, so a
# changed header asks the build to start the objects over.
echo "/* an overlay header */" >"$repo/libpcap/sluice-test-overlay.h"
sh "$prepare" libpcap "$v" "$tarball" "$repo" "$dest" 2>/dev/null
t_check "a new or changed header asks for a clean build" \
    test -e "$dest/.libpcap-$v.clean"

# A missing build dependency: configure names it and what to install.
fakebin=$TMPDIR/noflex
mkdir -p "$fakebin"
for d in /usr/local/bin /usr/bin /bin; do
	for f in "$d"/*; do
		b=$(basename "$f")
		[ "$b" = flex ] && continue
		[ -e "$fakebin/$b" ] || ln -s "$f" "$fakebin/$b"
	done
done
mkdir -p "$TMPDIR/conf"
expect_fail "configure names a missing build dependency and its package" \
    "flex is needed to build libpcap's filter scanner; install the Debian package flex" \
    sh -c "cd '$TMPDIR/conf' && PATH='$fakebin' '$SLUICE_SRCDIR/configure' --with-tarball-dir='$TMPDIR/good'"
t_done
