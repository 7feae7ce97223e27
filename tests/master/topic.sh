# Sourced by tests/master/t-topic-*.sh: run one of our tests against the
# tcpdump and libpcap that t-series.sh built from the master series, in
# place of ours.  $ported_test: the test, as tests/AREA/t-NAME.sh.

. "$SLUICE_SRCDIR/tests/master/master-build.sh"
TCPDUMP=$MASTER_TCPDUMP
LD_LIBRARY_PATH=$MASTER_LIB
# For what the master series leaves out on purpose (the lzop container).
SLUICE_MASTER_SERIES=1
export TCPDUMP LD_LIBRARY_PATH SLUICE_MASTER_SERIES
exec sh "$SLUICE_SRCDIR/$ported_test"
