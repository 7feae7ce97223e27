#!/bin/sh
#
# Pull request libpcap/07-erspan-filter of the master series: the
# "erspan [session]" primitive, written anew for master's gencode.c,
# on every frame of the crafted captures of tests/gen/erspan-pcap.c
# (each ERSPAN type over IPv4, IPv4 with options and IPv6, with no, one
# or two outer tags and every GRE C/K/S combination, and frames that
# must not match: a bad version, GRE routing or version, fragments,
# short lengths, other protocols, frame types other than Ethernet and
# cuts), with and without the optimizer, through master's filtertest:
# - "erspan" matches exactly the frames that our decapsulator
#   (libpcap/pcap-erspan.c) accepts, and "erspan N" those of session N;
# - expressions on the mirrored frame match the same frames as with our
#   libpcap 1.10.5 build;
# - the pull request's savefile, tests/filter/erspan.pcap, is what the
#   generator makes of the frames TESTrun's rows describe.

. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/master/master-build.sh"

src=$SLUICE_SRCDIR
ft=$SLUICE_BUILDDIR/upstream-master/libpcap/obj/testprogs/filtertest
if [ ! -x "$ft" ]; then
	echo "1..0 # SKIP no filtertest in the master series' libpcap build"
	exit 77
fi
gen=$TMPDIR/erspan-pcap
count=$TMPDIR/erspan-count
if build_c "$gen" "$src/tests/gen/erspan-pcap.c" "$src/tests/gen/erspan-craft.c" &&
    build_c "$count" -I"$src/tests/erspan/standalone" -I"$src/libpcap" \
    "$src/tests/erspan/erspan-count.c" "$src/libpcap/pcap-erspan.c"; then
	t_ok "build erspan-pcap and erspan-count"
else
	t_fail "build erspan-pcap and erspan-count"
	t_done
fi

# The frames of tests/filter/erspan.pcap, in order.
t_check "craft the pull request's savefile" "$gen" "$TMPDIR/erspan.pcap" \
    t1,port=443 t1,key,udp,port=53 t2,sid=7,port=80 \
    t2,tags=1,csum,key,sid=5,port=443 t2,tags=2,sid=7,udp,port=53 \
    t2,opt=8,sid=7,port=80 t2,v6,sid=9,port=80 t3,sid=7,port=80 \
    t3,o,pid=3,sid=1023,port=443 t3,v6,tags=1,key,o,pid=3,sid=7,udp,port=53 \
    t3,opt=8,tags=2,csum,sid=0,port=80 t2,sid=7,pad=128 t2,sid=7,cut=53 \
    t3,o,cut=70 t2,badver t3,badver t2,routing t1,routing t2,grever \
    t2,frag t2,fragoff t2,shortlen t3,v6,shortlen t2,badipver t2,notgre \
    t2,otherproto t3,ft=2 t2,cut=40 t2,tags=1,cut=16 t2,sid=7,cut=49
t_check "tests/filter/erspan.pcap is the crafted savefile" \
    cmp "$TMPDIR/erspan.pcap" "$src/libpcap/tests/filter/erspan.pcap"

m=$TMPDIR/matrix.pcap
t_check "craft the valid variants and the broken frames" "$gen" "$m" matrix

# master_verdicts OPT FILE EXPR: 1 or 0 a packet, master's filter.
master_verdicts() {
	# shellcheck disable=SC2086 # OPT is empty or -O
	LD_LIBRARY_PATH=$MASTER_LIB "$ft" $1 -r "$2" "$3" |
	    grep -v '^(' | awk '{ print ($1 != "0") }'
}

# ours_verdicts OPT FILE EXPR: erspan-count -l's lines, with our libpcap.
ours_verdicts() {
	# shellcheck disable=SC2086
	"$count" $1 -l "$2" "$3" | awk 'NF == 2'
}

# compare LABEL: want.txt and got.txt, one verdict a packet.
compare() {
	if [ -s "$TMPDIR/want.txt" ] && cmp -s "$TMPDIR/want.txt" "$TMPDIR/got.txt"; then
		t_ok "$1 ($(grep -c '^1$' "$TMPDIR/want.txt") of $(grep -c . "$TMPDIR/want.txt"))"
	else
		t_fail "$1"
		paste "$TMPDIR/want.txt" "$TMPDIR/got.txt" |
		    awk '$1 != $2 { print "#   frame " NR ": want " $1 ", got " $2 }' | head -5
	fi
}

ours_verdicts "" "$m" "" >"$TMPDIR/decap.txt"
for opt in "" -O; do
	how=${opt:+" (-O)"}
	awk '{ print ($2 != "no") }' "$TMPDIR/decap.txt" >"$TMPDIR/want.txt"
	master_verdicts "$opt" "$m" erspan >"$TMPDIR/got.txt"
	compare "master's erspan$how matches the frames the decapsulator accepts"
	for sid in 0 7 88 1023; do
		awk -v s="$sid" '{ print ($2 == s) }' "$TMPDIR/decap.txt" >"$TMPDIR/want.txt"
		master_verdicts "$opt" "$m" "erspan $sid" >"$TMPDIR/got.txt"
		compare "master's erspan $sid$how matches the frames of session $sid"
	done
	# The inner "ether[2:2]" is loaded at the same offset from another
	# register as the GRE protocol: the optimizer must not take one
	# for the other.
	for expr in 'erspan and tcp port 80' 'erspan and udp port 53' \
	    'erspan 7 and tcp' 'vlan and erspan' 'erspan and ip6' \
	    'erspan and ether[12:2] == 0x0800' \
	    'erspan and udp[8:4] == 0x736c7569' \
	    'erspan and ether[2:2] == 0x88be' \
	    'erspan and not ether[2:2] == 0x88be' \
	    'erspan and (tcp or udp) and len > 100' 'not erspan' \
	    'erspan and erspan'; do
		ours_verdicts "$opt" "$m" "$expr" | awk '{ print $1 }' >"$TMPDIR/want.txt"
		master_verdicts "$opt" "$m" "$expr" >"$TMPDIR/got.txt"
		compare "master's '$expr'$how matches what ours matches"
	done
done
t_done
