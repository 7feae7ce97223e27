#!/bin/sh
# Instructions per record on each thread, counted by callgrind, for a
# live capture: 40,000 64-byte frames at 10,000 frames/s (slow enough
# that nothing drops under valgrind) over a veth pair in two network
# namespaces it creates and removes.
#
# usage: instructions.sh LIBDIR OUT [CALLGRIND_OPTION]
#   LIBDIR: the libpcap.so to measure (our tcpdump binary runs against it)
#   CALLGRIND_OPTION: --separate-threads=yes (every thread, whole life;
#   OUT-01 is the capture thread, OUT-02 the writer) or
#   --toggle-collect=pcap_dump (the capture thread inside pcap_dump())
# Run as root from the top of a configured build (_build).
LIB=$1; OUT=$2; OPT=${3:---separate-threads=yes}
T=${T:-obj/tcpdump/tcpdump}
G=tools/sluice-gen
ip netns add cgA && ip netns add cgB || exit 1
ip link add cga type veth peer name cgb
ip link set cga netns cgA; ip link set cgb netns cgB
ip -n cgA link set cga up; ip -n cgB link set cgb up
ip netns exec cgB env LD_LIBRARY_PATH="$LIB" valgrind --tool=callgrind \
    --callgrind-out-file="$OUT" "$OPT" "$T" -i cgb -s 65535 \
    -w /tmp/cg-capture.pcap 2>"$OUT.err" &
sleep 4
ip netns exec cgA "$G" --type fixed64 --count 40000 --rate 10000 --iface cga
sleep 3
pkill -INT -f "callgrind.*-i cgb"
wait
grep -a "captured\|dropped" "$OUT.err"
ip netns del cgA; ip netns del cgB
rm -f /tmp/cg-capture.pcap
