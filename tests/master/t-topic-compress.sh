#!/bin/sh
#
# Pull request tcpdump/04-savefile-options of the master series:
# tcpdump --compress with the options it composes with (-C/-W rotation
# by bytes on disk, -z, -U, -s, filters, empty captures, a full disk,
# errors on the command line): tests/compress/t-tcpdump.sh, run against
# the master series' tcpdump and libpcap.

ported_test=tests/compress/t-tcpdump.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
