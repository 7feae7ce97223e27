#!/bin/sh
#
# Every man page we add renders for a terminal, as man(1) does, without
# a groff warning, and every page our patches change renders with no more
# warnings than the stock page (groff -ww: all warnings; a macro line
# that swallows the text after it, such as ".BR name (3PCAP)).  The file
# is ...", shows up as "cannot adjust line").

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd groff

# warnings FILE: groff's warnings for the page, one per line.  Pages
# that only say ".so man3/other.3pcap" are read where man(1) reads them,
# from the top of a man tree.
mkdir "$TMPDIR/man" && ln -s "$SLUICE_SRCDIR/libpcap" "$TMPDIR/man/man3"
warnings() {
	(cd "$TMPDIR/man" && LC_ALL=C.UTF-8 groff -ww -z -t -man -Tutf8 "$1" 2>&1) |
	    sed "s|^.*:\([0-9]*\):|line \1:|"
}

for page in "$SLUICE_SRCDIR"/libpcap/*.3pcap*; do
	w=$(warnings "$page")
	t_expect_eq "$(basename "$page") renders without warnings" "" "$w"
done

src=$SLUICE_BUILDDIR/src
for comp in libpcap-1.10.5 tcpdump-4.99.6; do
	for patch in $(cat "$SLUICE_SRCDIR/patches/${comp%%-*}/series"); do
		sed -n 's|^+++ b/||p' "$SLUICE_SRCDIR/patches/${comp%%-*}/$patch"
	done | sort -u | grep -E '\.(1|3pcap|manfile|manmisc|manfile\.in|manmisc\.in|3pcap\.in|1\.in)$' |
	while read -r f; do
		ours=$(warnings "$src/$comp/$f" | wc -l)
		stock=$(warnings "$src/stock-$comp/$f" | wc -l)
		if [ "$ours" -le "$stock" ]; then
			echo "ok - $f (patched): $ours groff warnings, stock $stock"
		else
			echo "not ok - $f (patched): $ours groff warnings, stock $stock: $(warnings "$src/$comp/$f" | head -2 | tr '\n' ' ')"
		fi
	done
done >"$TMPDIR/patched"
# The loop ran in a subshell (a pipeline); count its lines here.
while read -r line; do
	case $line in
	ok*) t_ok "${line#ok - }" ;;
	*) t_fail "${line#not ok - }" ;;
	esac
done <"$TMPDIR/patched"
t_done
