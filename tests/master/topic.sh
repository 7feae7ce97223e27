# Sourced by tests/master/t-topic-*.sh: run one of our tests against the
# tcpdump and libpcap that t-series.sh built from the master series, in
# place of ours.  $ported_test: the test, as tests/AREA/t-NAME.sh.

master=$SLUICE_BUILDDIR/upstream-master
if [ ! -x "$master/tcpdump/obj/tcpdump" ]; then
	echo "1..0 # SKIP no build of the master series (t-series.sh skipped or failed)"
	exit 77
fi
TCPDUMP=$master/tcpdump/obj/tcpdump
LD_LIBRARY_PATH=$master/libpcap-installed/lib
export TCPDUMP LD_LIBRARY_PATH
exec sh "$SLUICE_SRCDIR/$ported_test"
