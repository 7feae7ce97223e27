#!/bin/sh
#
# Pull request tcpdump/06-rotation of the master series: a disk that
# fills before -C -W's ring or --disk-budget does
# (tests/writer-live/t-enospc-ring.sh), run against the master series'
# tcpdump and libpcap.

ported_test=tests/writer-live/t-enospc-ring.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
