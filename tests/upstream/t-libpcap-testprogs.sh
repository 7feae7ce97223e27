#!/bin/sh
#
# libpcap's own test programs (1.10.5 has no test runner, only
# "make testprogs"), built from OUR patched tree and from the stock tree:
# - filtertest: the BPF code our libpcap generates for ordinary filters,
#   optimised and not, on several link types, must be byte-identical to
#   stock's -- our gencode hooks may add primitives, never change old ones;
#   and bad filters must fail the same way;
# - findalldevstest lists interfaces (loopback at least);
# - opentest opens loopback for capture (needs root).

. "$SLUICE_SRCDIR/tests/lib.sh"

ours=$SLUICE_BUILDDIR/obj/libpcap
stock=$SLUICE_BUILDDIR/obj/stock-libpcap
for d in "$ours" "$stock"; do
	if ! make -s -C "$d" testprogs >"$TMPDIR/build.log" 2>&1; then
		t_fail "make testprogs in $d"
		tail -20 "$TMPDIR/build.log" | sed 's/^/#   /'
		t_done
	fi
done
t_ok "make testprogs builds in our tree and the stock tree"

# DLT, then expression; one per line.
cat >"$TMPDIR/filters" <<'EOF2'
EN10MB|
EN10MB|tcp port 80
EN10MB|host 192.0.2.1 and not port 22
EN10MB|ip6 and udp dst port 53
EN10MB|vlan 100 and tcp
EN10MB|vlan and vlan and ip
EN10MB|mpls 17 and ip
EN10MB|geneve 5 and tcp port 443
EN10MB|pppoes 3 and ip
EN10MB|ip proto 47
EN10MB|tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420
EN10MB|ether broadcast or ether multicast
EN10MB|icmp[icmptype] == icmp-echo
EN10MB|ip[6:2] & 0x1fff != 0
EN10MB|net 10.0.0.0/8 and greater 1000
EN10MB|ip6 protochain 6
EN10MB|ether proto 0x88be
RAW|tcp port 80
RAW|ip6 and icmp6
LINUX_SLL|udp
LINUX_SLL2|tcp and port 443
IEEE802_11_RADIO|wlan type data
NULL|ip
PPP|ip and tcp
EOF2

n=0
diffs=0
while IFS='|' read -r dlt expr; do
	for opt in "" -O; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$ours/testprogs/filtertest" $opt -d "$dlt" "$expr" >"$TMPDIR/o" 2>&1
		orc=$?
		# shellcheck disable=SC2086
		"$stock/testprogs/filtertest" $opt -d "$dlt" "$expr" >"$TMPDIR/s" 2>&1
		src=$?
		if [ $orc -ne $src ] || ! cmp -s "$TMPDIR/o" "$TMPDIR/s"; then
			diffs=$((diffs + 1))
			echo "# differs: filtertest $opt $dlt '$expr'"
			diff "$TMPDIR/s" "$TMPDIR/o" | head -10 | sed 's/^/#   /'
		fi
	done
done <"$TMPDIR/filters"
if [ $diffs -eq 0 ]; then
	t_ok "filtertest: $n programs identical to stock libpcap's"
else
	t_fail "filtertest: $diffs of $n programs differ from stock libpcap's"
fi

for bad in "tcp port 99999" "host" "ether proto nosuchproto" "vlan 5000"; do
	"$ours/testprogs/filtertest" EN10MB "$bad" >"$TMPDIR/o" 2>&1
	orc=$?
	"$stock/testprogs/filtertest" EN10MB "$bad" >"$TMPDIR/s" 2>&1
	src=$?
	if [ $orc -ne 0 ] && [ $orc -eq $src ] && cmp -s "$TMPDIR/o" "$TMPDIR/s"; then
		t_ok "filtertest rejects '$bad' as stock does"
	else
		t_fail "filtertest '$bad': exit $orc (stock $src), output differs or it was accepted"
	fi
done

if "$ours/testprogs/findalldevstest" >"$TMPDIR/f" 2>&1 && grep -q '^lo' "$TMPDIR/f"; then
	t_ok "findalldevstest lists the loopback interface"
else
	t_fail "findalldevstest: $(head -3 "$TMPDIR/f")"
fi

if [ "$(id -u)" -eq 0 ]; then
	t_check "opentest opens loopback for capture" "$ours/testprogs/opentest" -i lo
else
	t_skip "opentest opens loopback" "needs root"
fi
t_done
