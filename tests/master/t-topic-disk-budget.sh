#!/bin/sh
#
# Pull request tcpdump/06-rotation of the master series: --disk-budget
# over about 100 rotations (tests/writer-live/t-disk-budget.sh), run
# against the master series' tcpdump and libpcap.

ported_test=tests/writer-live/t-disk-budget.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
