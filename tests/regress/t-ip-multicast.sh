#!/bin/sh
# "ip multicast" is 224.0.0.0/4 only (libpcap 1.10.6's fix, backported):
# tests/regress/ip-multicast.c runs the compiled filter on frames to
# multicast, reserved and broadcast destinations.
. "$SLUICE_SRCDIR/tests/lib.sh"

t_program ip-multicast "$SLUICE_SRCDIR/tests/regress/ip-multicast.c"
t_done
