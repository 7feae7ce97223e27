#!/bin/sh
#
# Pull request tcpdump/06-rotation of the master series: -G with a name
# that does not change, the previous file complete before its name is
# opened again (tests/writer-live/t-rotate-samename.sh), run against
# the master series' tcpdump and libpcap.

ported_test=tests/writer-live/t-rotate-samename.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
