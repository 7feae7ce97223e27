#!/bin/sh
#
# The build is the fork and runs with the fork's libpcap, never a system
# libpcap: tcpdump --version says so, tcpdump carries no RPATH into the
# build tree, and libpcap is a shared library with the configured SONAME
# (libpcap's own libpcap.so.1, or LIBPCAP_SONAME such as Debian's
# libpcap.so.0.8) plus a static archive.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd readelf ldd

libdir=$(echo "$PCAP_LIBS" | sed 's/^-L\([^ ]*\) .*/\1/')
v=$("$TCPDUMP" --version 2>&1)
t_expect_eq "tcpdump --version names the fork" \
    "tcpdump version $SLUICE_TCPDUMP_VERSION (sluice $SLUICE_VERSION)" \
    "$(echo "$v" | sed -n 1p)"
case $(echo "$v" | sed -n 2p) in
"libpcap version $SLUICE_LIBPCAP_VERSION (sluice $SLUICE_VERSION) (with TPACKET_V3)")
	t_ok "tcpdump runs with our libpcap" ;;
*)	t_fail "tcpdump runs with another libpcap: $(echo "$v" | sed -n 2p)" ;;
esac

soname=$SLUICE_LIBPCAP_SONAME
resolved=$(ldd "$TCPDUMP" | awk -v n="$soname" '$1 == n { print $3 }')
t_expect_eq "the dynamic linker resolves $soname to the staged library" \
    "$libdir/$soname" "$resolved"

if readelf -d "$TCPDUMP" | grep -Eq 'RPATH|RUNPATH'; then
	t_fail "tcpdump has an RPATH/RUNPATH: $(readelf -d "$TCPDUMP" | grep -E 'RPATH|RUNPATH')"
else
	t_ok "tcpdump has no RPATH or RUNPATH"
fi

got=$(readelf -d "$libdir/libpcap.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
t_expect_eq "libpcap's SONAME" "$soname" "$got"
t_check "the static libpcap.a is built" test -s "$libdir/libpcap.a"

# Stock tcpdump, from the same tarball, is the unmodified release.
sv=$(LD_LIBRARY_PATH=$STOCK_LD_LIBRARY_PATH "$STOCK_TCPDUMP" --version 2>&1 | sed -n 1,2p | tr '\n' ' ')
t_expect_eq "stock tcpdump is the release" \
    "tcpdump version $SLUICE_TCPDUMP_VERSION libpcap version $SLUICE_LIBPCAP_VERSION (with TPACKET_V3) " "$sv"

# A program built against our headers links and runs with our library.
cat >"$TMPDIR/v.c" <<'EOC'
#include <stdio.h>
#include <pcap/pcap.h>
int
main(void)
{
	puts(pcap_lib_version());
	return (0);
}
EOC
if build_c "$TMPDIR/v" "$TMPDIR/v.c"; then
	t_expect_eq "a program linked against the staged libpcap reports the fork" \
	    "libpcap version $SLUICE_LIBPCAP_VERSION (sluice $SLUICE_VERSION) (with TPACKET_V3)" \
	    "$("$TMPDIR/v")"
else
	t_fail "cannot build a program against the staged libpcap"
fi
t_done
