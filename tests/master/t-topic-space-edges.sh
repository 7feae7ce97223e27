#!/bin/sh
#
# Pull request tcpdump/06-rotation of the master series: a stop for
# lack of space that begins and ends between two of tcpdump's looks is
# said and listed, and the file reads to its end with every other
# packet (tests/faults/t-space-edges.sh), run against the master
# series' tcpdump and libpcap.

ported_test=tests/faults/t-space-edges.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
