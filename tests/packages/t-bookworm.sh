#!/bin/sh
#
# Our packages for Debian 12 replace bookworm's libpcap0.8, libpcap0.8-dev,
# libpcap-dev and tcpdump, and go back out again (debian-upgrade.sh).
# Bookworm's tshark 4.0 reads only the first frame of a zstd or lz4
# capture, so only the gzip capture of many blocks is read by it.

. "$SLUICE_SRCDIR/tests/lib.sh"

suite=bookworm
lib=libpcap0.8
big_codecs="gzip:gz"
slice=slice
. "$SLUICE_SRCDIR/tests/packages/debian-upgrade.sh"
