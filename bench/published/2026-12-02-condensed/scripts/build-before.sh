#!/bin/bash
# How /tmp/perf5/before and /tmp/perf5/after were made (run 05:09-05:11 UTC, everything under nice -n 19).
set -e
# before: e681717 in a worktree, configured as /work/main/_build (its config.log: "../configure --with-lzo";
# tarballs from the default cache, $HOME/.cache/sluice), default make target (libpcap, then tcpdump).
git -C /work/main worktree add /tmp/perf5/src-before e681717
(cd /tmp/perf5/src-before && autoreconf -fi)
mkdir -p /tmp/perf5/build-before && cd /tmp/perf5/build-before
../src-before/configure --with-lzo
make -s                       # 05:09:30 to 05:10:45
mkdir -p /tmp/perf5/before/lib
cp -a stage/usr/local/lib/libpcap.so* /tmp/perf5/before/lib/
cp -a obj/tcpdump/tcpdump /tmp/perf5/before/
# checks: every libpcap/*.c, *.h of e681717 equals src/libpcap-1.10.5's; `diff -rq` of src/ against
# /work/main/_build/src/ lists only the 11 condensed libpcap files; the tcpdump trees are equal.
# after: HEAD 428e2c4 as built in /work/main/_build (`git diff --stat HEAD -- libpcap` empty, every
# libpcap/*.c, *.h equals _build/src/libpcap-1.10.5's, every tcpdump/*.c, *.h equals _build/src/tcpdump-4.99.6's).
mkdir -p /tmp/perf5/after/lib
cp -a /work/main/_build/stage/usr/local/lib/libpcap.so* /tmp/perf5/after/lib/
cp -a /work/main/_build/obj/tcpdump/tcpdump /tmp/perf5/after/
# the two tcpdump binaries are byte-identical (md5 f3e96e66...); only libpcap.so differs.
# at the end: git -C /work/main worktree remove --force /tmp/perf5/src-before
