#!/bin/sh
#
# Pull request tcpdump/06-rotation of the master series: a file that a
# rotation cannot open on a read-only file system, and writing again
# once it can (tests/writer-live/t-rotate-readonly.sh), run against the
# master series' tcpdump and libpcap.

ported_test=tests/writer-live/t-rotate-readonly.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
