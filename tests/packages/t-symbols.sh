#!/bin/sh
#
# The packages' ABI check cannot be fooled: dpkg-gensymbols at level 4,
# as debian/rules runs it, passes with packaging/debian/libpcap0.8.symbols
# and fails when that file lacks one symbol the library exports (a new
# symbol nobody listed) or lists one it does not (a symbol lost).  Every
# symbol bookworm's libpcap0.8 exports is listed, with the same minimal
# version, so nothing Debian's programs use can go missing unnoticed.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd dpkg-gensymbols
: "${SLUICE_DEB_DIR:?run this through make check-packages}"

tree=$(ls -d "$SLUICE_DEB_DIR"/sluice-*/ 2>/dev/null | head -1)
# The library package of the host's release: libpcap0.8t64 from trixie on.
pkg=libpcap0.8
[ -d "$tree"debian/libpcap0.8t64 ] && pkg=libpcap0.8t64
lib=$(ls "$tree"debian/$pkg/usr/lib/*/libpcap.so.*.*.* 2>/dev/null | head -1)
if [ -z "$lib" ]; then
	t_fail "the package build tree in $SLUICE_DEB_DIR has $pkg's library"
	t_done
fi
symbols=$SLUICE_SRCDIR/packaging/debian/libpcap0.8.symbols
version=$(dpkg-deb -f "$SLUICE_DEB_DIR"/${pkg}_*.deb Version)

# gensymbols SYMBOLS-FILE: dpkg-gensymbols -c4 on the built library.
gensymbols() {
	(cd "$tree" && dpkg-gensymbols -c4 -p$pkg -Pdebian/$pkg \
	    -v"$version" -I"$1" -O"$TMPDIR/out.symbols" -e"$lib") >"$TMPDIR/gs.log" 2>&1
}

t_check "dpkg-gensymbols -c4 passes with the shipped symbols file" gensymbols "$symbols"

grep -v '^ pcap_set_erspan_session@Base' "$symbols" >"$TMPDIR/unlisted"
if gensymbols "$TMPDIR/unlisted"; then
	t_fail "dpkg-gensymbols -c4 accepts an exported symbol that is not listed"
elif grep -q '^+ *pcap_set_erspan_session@Base' "$TMPDIR/gs.log"; then
	t_ok "an exported symbol that is not listed fails the check, and is named"
else
	t_fail "dpkg-gensymbols failed without naming pcap_set_erspan_session"
	sed 's/^/#   /' "$TMPDIR/gs.log" | head -20
fi

{ cat "$symbols"; echo " pcap_not_in_the_library@Base 1.0.0"; } >"$TMPDIR/lost"
if gensymbols "$TMPDIR/lost"; then
	t_fail "dpkg-gensymbols -c4 accepts a listed symbol the library lacks"
elif grep -q '^- *pcap_not_in_the_library@Base' "$TMPDIR/gs.log"; then
	t_ok "a listed symbol the library lacks fails the check, and is named"
else
	t_fail "dpkg-gensymbols failed without naming the lost symbol"
	sed 's/^/#   /' "$TMPDIR/gs.log" | head -20
fi

# Debian's 96 symbols keep Debian's minimal versions (1.10.3 and
# older); only ours ask for our package, at a version above Debian's
# 1.10.5-2.
old=$(grep -c '@Base [01]\.[0-9.]*$' "$symbols")
ours=$(grep -c "@Base 1.10.5-2+sluice1~$" "$symbols")
t_expect_eq "the symbols file lists Debian's 96 symbols at Debian's versions" 96 "$old"
t_check "our additions' minimal version sorts above Debian's 1.10.5-2" \
    dpkg --compare-versions 1.10.5-2+sluice1~ gt 1.10.5-2
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ { n++ } END { print n }')
t_expect_eq "the library exports exactly the listed symbols" "$exported" "$((old + ours))"

t_done
