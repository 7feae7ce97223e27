# Sourced by tests/master/t-topic-*.sh and topic.sh: the tcpdump and the
# libpcap that t-series.sh built from the master series, or a skip when
# there is none.  Sets MASTER_TCPDUMP and MASTER_LIB.

master=$SLUICE_BUILDDIR/upstream-master
if [ ! -x "$master/tcpdump/obj/tcpdump" ]; then
	echo "1..0 # SKIP no build of the master series (t-series.sh skipped or failed)"
	exit 77
fi
MASTER_TCPDUMP=$master/tcpdump/obj/tcpdump
MASTER_LIB=$master/libpcap-installed/lib
