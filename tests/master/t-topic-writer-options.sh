#!/bin/sh
#
# Pull request tcpdump/04-savefile-options of the master series:
# --writer-cpu and --writer-ring, refused clearly where they are wrong
# and writing the same file as without a writer thread where they are
# not (tests/writer-live/t-options.sh), run against the master series'
# tcpdump and libpcap.

ported_test=tests/writer-live/t-options.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
