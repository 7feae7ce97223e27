#!/bin/sh
#
# Pull request tcpdump/06-rotation of the master series: -G on the
# clock with --align-rotation, and -W with -C and -G as the manual says
# (tests/writer-live/t-rotate-align.sh), run against the master series'
# tcpdump and libpcap.

ported_test=tests/writer-live/t-rotate-align.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
