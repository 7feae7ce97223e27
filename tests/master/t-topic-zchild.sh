#!/bin/sh
#
# Pull request tcpdump/01-z-child-exit of the master series: a -z command
# that is missing or fails does not touch the savefile being read
# (tests/faults/t-zflag.sh, run against the master series' tcpdump).

ported_test=tests/faults/t-zflag.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
