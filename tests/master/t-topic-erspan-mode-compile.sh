#!/bin/sh
#
# Pull requests libpcap/08-erspan-mode and tcpdump/05-erspan of the
# master series: the programs of ERSPAN mode (-d with --erspan and -y
# ERSPAN) equal those of "erspan and EXPR" on Ethernet, sessions,
# refusals, and the API checks of erspan-mode-api.c
# (tests/erspan-mode/t-mode-compile.sh), run against the master series'
# tcpdump and libpcap.

ported_test=tests/erspan-mode/t-mode-compile.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
