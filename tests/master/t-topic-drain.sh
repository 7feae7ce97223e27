#!/bin/sh
#
# Pull request tcpdump/02-drain-on-signal of the master series: a SIGINT
# right after the last frame loses nothing (tests/live/t-sigint-drain.sh,
# run against the master series' tcpdump).

ported_test=tests/live/t-sigint-drain.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
