#!/bin/sh
#
# Pull request tcpdump/04-savefile-options of the master series: -C and
# -G rotations with a writer thread, the old file finished on libpcap's
# closing thread while the capture goes on, -z on each complete file
# (tests/writer-live/t-rotate.sh, live on a veth pair), run against the
# master series' tcpdump and libpcap.

ported_test=tests/writer-live/t-rotate.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
