#!/bin/sh
#
# Pull request tcpdump/04-savefile-options of the master series: the
# savefile on the paths that are not the plain end of a capture (SIGUSR2
# after rotations, error(), the -W limit of -G, a write error), with a
# writer thread and --compress (tests/writer-live/t-exit.sh), run
# against the master series' tcpdump and libpcap.

ported_test=tests/writer-live/t-exit.sh
. "$SLUICE_SRCDIR/tests/master/topic.sh"
