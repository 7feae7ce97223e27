#!/bin/sh
#
# Pull requests libpcap/08-erspan-mode and tcpdump/05-erspan of the
# master series: live captures on a veth pair with --erspan and -y
# ERSPAN, in which only the matching mirrored frames reach user space
# (tests/erspan-mode/t-mode-live.sh), run against the master series'
# tcpdump and libpcap.

ported_test=tests/erspan-mode/t-mode-live.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
