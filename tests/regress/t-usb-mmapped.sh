#!/bin/sh
# A pcapng capture of one memory-mapped Linux USB record (link type 220)
# whose packet data is 4-byte aligned, as pcapng places it: an incoming
# isochronous completion written with the original length old libpcap
# computed (180).  libpcap must read its 64-bit header members from an
# aligned copy: under UndefinedBehaviorSanitizer (configure
# --enable-sanitizers) a read through the misaligned pointer aborts.
# In every build the length correction must still happen: 100 bytes,
# the pseudo-header and descriptor plus the 20 bytes it describes.
. "$SLUICE_SRCDIR/tests/lib.sh"

prog=$TMPDIR/pcap-lengths
if build_c "$prog" "$SLUICE_SRCDIR/tests/regress/pcap-lengths.c"; then
	t_ok "build pcap-lengths"
else
	t_fail "build pcap-lengths"
	t_done
fi
f=$SLUICE_SRCDIR/tests/regress/usb-mmapped-iso-aligned4.pcapng
if out=$("$prog" "$f" 2>"$TMPDIR/err"); then
	t_ok "reads the 4-byte aligned USB record without an error"
else
	t_fail "reads the 4-byte aligned USB record: $(head -3 "$TMPDIR/err")"
fi
t_expect_eq "the original length is corrected from 180 to 100" \
    "caplen 100 len 100" "$out"
t_done
