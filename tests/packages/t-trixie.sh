#!/bin/sh
#
# Our packages for Debian 13 replace trixie's libpcap0.8t64 (the name the
# 64-bit time_t transition gave libpcap0.8), libpcap0.8-dev, libpcap-dev
# and tcpdump, and go back out again (debian-upgrade.sh).  Trixie's
# tshark 4.4 reads our zstd, lz4 and gzip captures of many blocks.

. "$SLUICE_SRCDIR/tests/lib.sh"

suite=trixie
lib=libpcap0.8t64
big_codecs="zstd:zst lz4:lz4 gzip:gz"
slice=
. "$SLUICE_SRCDIR/tests/packages/debian-upgrade.sh"
