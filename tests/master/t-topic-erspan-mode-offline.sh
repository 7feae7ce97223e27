#!/bin/sh
#
# Pull requests libpcap/08-erspan-mode and tcpdump/05-erspan of the
# master series: savefiles read with --erspan, decapsulated as tshark
# sees their inner frames, sessions, and the frames skipped as not
# ERSPAN counted (tests/erspan-mode/t-mode-offline.sh), run against the
# master series' tcpdump and libpcap.

ported_test=tests/erspan-mode/t-mode-offline.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
