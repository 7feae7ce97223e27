#!/bin/sh
#
# Pull request libpcap/09-disk-full of the master series, with
# tcpdump/04-savefile-options: a full disk is an episode, said when it
# begins and ends, with every packet accounted for and a file that
# reads to its end (tests/writer-live/t-enospc.sh), run against the
# master series' tcpdump and libpcap.

ported_test=tests/writer-live/t-enospc.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
