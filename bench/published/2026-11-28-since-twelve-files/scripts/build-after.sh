#!/bin/bash
# How /tmp/perf3/after was made (run 13:46-13:47 UTC; recorded here, not meant to be re-run blindly).
# /work/main/_build's libpcap was used as it was; its tcpdump had just been relinked (13:46:06) by another
# session from a working tree with uncommitted changes to tcpdump/dumpfile.c, so tcpdump was relinked here
# with HEAD's dumpfile.c (every other tcpdump/*.c, *.h in _build/src equalled HEAD; libpcap/ had no changes).
set -e
mkdir -p /tmp/perf3/after/lib /tmp/perf3/build
cp -a /work/main/_build/stage/usr/local/lib/libpcap.so* /tmp/perf3/after/lib/
cd /tmp/perf3/build
cp -a /work/main/_build/obj/tcpdump obj
cp -a /work/main/_build/src/tcpdump-4.99.6 src
cp -a /work/main/_build/stage/usr/local/include inc
git -C /work/main show HEAD:tcpdump/dumpfile.c > src/dumpfile.c
cd obj
sed -i 's#/work/main/_build/src/tcpdump-4.99.6#/tmp/perf3/build/src#g; s#/work/main/_build/stage/usr/local/include#/tmp/perf3/build/inc#; s#-L/work/main/_build/stage/usr/local/lib#-L/tmp/perf3/after/lib#' Makefile
touch ../src/dumpfile.c
make tcpdump          # compiles dumpfile.c only (gcc -g -O2, as _build), relinks
cp tcpdump /tmp/perf3/after/tcpdump
