#!/bin/sh
#
# make install honours the configured prefix and DESTDIR, installs what a
# libpcap + tcpdump package must (tcpdump, the shared and static library,
# headers, pcap-config, libpcap.pc, man pages), and nothing installed
# points back into the build tree.

. "$SLUICE_SRCDIR/tests/lib.sh"

# The configured directories, as the Makefile has them (libdir and the
# others may be given on their own, or derive from the prefix).
for v in prefix exec_prefix datarootdir bindir libdir includedir mandir; do
	eval "$v=\"$(sed -n "s/^$v = //p" "$SLUICE_BUILDDIR/Makefile")\""
done
dest=$TMPDIR/dest
if ! make -s -C "$SLUICE_BUILDDIR" install DESTDIR="$dest" >"$TMPDIR/log" 2>&1; then
	t_fail "make install DESTDIR=..."
	tail -20 "$TMPDIR/log" | sed 's/^/#   /'
	t_done
fi
t_ok "make install DESTDIR=... succeeds"

for f in "$bindir/tcpdump" "$libdir/$SLUICE_LIBPCAP_SONAME" "$libdir/libpcap.a" \
    "$includedir/pcap.h" "$includedir/pcap/pcap.h" "$bindir/pcap-config" \
    "$libdir/pkgconfig/libpcap.pc" "$mandir/man1/tcpdump.1" \
    "$mandir/man3/pcap.3pcap" "$mandir/man7/pcap-filter.7"; do
	t_check "installs $f" test -e "$dest$f"
done

t_check "the installed libpcap.pc names the real prefix" \
    grep -q "^prefix=\"$prefix\"" "$dest$libdir/pkgconfig/libpcap.pc"
case $CFLAGS in
*-fsanitize=*)
	# The sanitizers record source paths for their reports, and GCC's
	# -ffile-prefix-map does not rewrite those; such a build is for
	# testing, not for packaging.
	t_skip "no installed file mentions the build tree" "sanitizer build"
	;;
*)
	if grep -rl "$SLUICE_BUILDDIR" "$dest" >"$TMPDIR/leaks" 2>/dev/null; then
		t_fail "installed files mention the build tree: $(tr '\n' ' ' <"$TMPDIR/leaks")"
	else
		t_ok "no installed file mentions the build tree"
	fi
	;;
esac

# The installed tcpdump runs with the installed libpcap.
v=$(LD_LIBRARY_PATH=$dest$libdir "$dest$bindir/tcpdump" --version 2>&1 | sed -n 2p)
case $v in
"libpcap version $SLUICE_LIBPCAP_VERSION (sluice $SLUICE_VERSION)"*)
	t_ok "the installed tcpdump runs with the installed libpcap" ;;
*)	t_fail "the installed tcpdump reports: $v" ;;
esac
t_done
