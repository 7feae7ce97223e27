#!/bin/sh
# The "erspan [session]" filter primitive: compile checks (with and
# without the optimizer), packet counts over crafted captures and the
# sample captures compared with tshark's display filters, and the
# decapsulated inner frames compared with tshark's view of them.
. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd tshark

src=$SLUICE_SRCDIR
data=$src/../shared/testdata/erspan
gen=$TMPDIR/erspan-pcap
count=$TMPDIR/erspan-count
if build_c "$gen" "$src/tests/gen/erspan-pcap.c" \
    "$src/tests/gen/erspan-craft.c" &&
    build_c "$count" -I"$src/tests/erspan/standalone" -I"$src/libpcap" \
    "$src/tests/erspan/erspan-count.c" \
    "$src/libpcap/pcap-erspan.c"; then
	t_ok "build erspan-pcap and erspan-count"
else
	t_fail "build erspan-pcap and erspan-count"
	t_done
fi

v=$TMPDIR/variants.pcap
b=$TMPDIR/broken.pcap
t_check "craft valid variants" "$gen" "$v" variants
t_check "craft broken frames" "$gen" "$b" broken

# tshark count of a display filter (its warnings on stderr dropped).
ts_count() {
	tshark -r "$1" -Y "$2" 2>/dev/null | wc -l | tr -d ' '
}

# --- compiling -------------------------------------------------------
if out=$("$TCPDUMP" -r "$v" -d erspan 2>/dev/null) &&
    [ "$(printf '%s\n' "$out" | tail -1 | tr -s ' \t' ' ')" = "($(($(printf '%s\n' "$out" | wc -l) - 1))) ret #0" ]; then
	t_ok "tcpdump -d erspan compiles"
else
	t_fail "tcpdump -d erspan compiles"
fi
opt=$("$TCPDUMP" -r "$v" -d 'erspan 7 and tcp port 80' 2>&1)
noopt=$("$TCPDUMP" -r "$v" -O -d 'erspan 7 and tcp port 80' 2>&1)
if [ -n "$opt" ] && [ "$opt" != "$noopt" ]; then
	t_ok "the optimizer stays on for erspan"
else
	t_fail "the optimizer stays on for erspan"
fi
t_check "erspan 1023 compiles" "$TCPDUMP" -r "$v" -d 'erspan 1023'
if err=$("$TCPDUMP" -r "$v" -d 'erspan 1024' 2>&1); then
	t_fail "erspan 1024 is an error: it compiled"
else
	case $err in
	*"ERSPAN session ID 1024 greater than maximum 1023"*)
		t_ok "erspan 1024 is an error" ;;
	*)	t_fail "erspan 1024 is an error: '$err'" ;;
	esac
fi
# A savefile of LINKTYPE_RAW (101): no Ethernet header to start from.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\145\000\000\000' \
    >"$TMPDIR/raw.pcap"
if err=$("$count" "$TMPDIR/raw.pcap" erspan 2>&1); then
	t_fail "erspan on a non-Ethernet link is an error: it compiled"
else
	case $err in
	*"'erspan' supported only on Ethernet"*)
		t_ok "erspan on a non-Ethernet link is an error" ;;
	*)	t_fail "erspan on a non-Ethernet link is an error: '$err'" ;;
	esac
fi

# libpcap's own testprogs/filtertest, from our build.
ft=$SLUICE_BUILDDIR/obj/libpcap/testprogs/filtertest
if make -s -C "$SLUICE_BUILDDIR/obj/libpcap" testprogs >"$TMPDIR/testprogs.log" 2>&1 &&
    [ -x "$ft" ]; then
	t_check "filtertest EN10MB 'erspan 7 and tcp port 80'" \
	    "$ft" EN10MB 'erspan 7 and tcp port 80'
	t_check "filtertest -O (no optimizer) EN10MB 'erspan and erspan and ip'" \
	    "$ft" -O EN10MB 'erspan and erspan and ip'
	if "$ft" EN10MB 'erspan 2000' >/dev/null 2>&1; then
		t_fail "filtertest EN10MB 'erspan 2000' fails"
	else
		t_ok "filtertest EN10MB 'erspan 2000' fails"
	fi
else
	t_fail "build libpcap's testprogs: $(tail -3 "$TMPDIR/testprogs.log")"
fi

# --- counts against tshark -------------------------------------------
# libpcap filter | the equivalent tshark display filter.  "erspan" on
# clean traffic is tshark's "erspan" minus type III frames that are not
# Ethernet (erspan.ft is absent for types I and II).
pairs='erspan|erspan && !(erspan.ft != 0)
erspan 7|erspan.spanid == 7
erspan 0|erspan.spanid == 0
erspan and tcp port 80|tcp.port == 80
erspan 7 and tcp port 80|erspan.spanid == 7 && tcp.port == 80
erspan and udp port 53|udp.port == 53
erspan and not udp|tcp
vlan and erspan|vlan
ip6 and erspan|ipv6 && !vlan
erspan and tcp[13] = 0x18 and ip host 192.168.0.2|tcp.flags == 0x18 && ip.addr == 192.168.0.2
erspan and ether src 02:00:5e:20:00:01 and ip|eth.src == 02:00:5e:20:00:01 && ip'
check_pairs() {
	_file=$1
	_label=$2
	# A here-document, not a pipe, so the loop runs in this shell and
	# its t_* results are counted.
	while IFS='|' read -r _f _y; do
		_want=$(ts_count "$_file" "$_y")
		for _o in "" -O; do
			# shellcheck disable=SC2086
			_got=$("$count" $_o "$_file" "$_f" 2>&1)
			t_expect_eq "$_label: '$_f'${_o:+ (no optimizer)} = tshark '$_y'" \
			    "$_want" "$_got"
		done
	done <<PAIRS
$pairs
PAIRS
}
check_pairs "$v" "variants"
# A test that cannot fail is a defect: the counts must not all be equal.
n_all=$(ts_count "$v" 'erspan')
n_7=$(ts_count "$v" 'erspan.spanid == 7')
if [ "$n_all" -gt 100 ] && [ "$n_7" -gt 10 ] && [ "$n_7" -lt "$n_all" ]; then
	t_ok "variants: counts are distinct ($n_all, $n_7)"
else
	t_fail "variants: counts are distinct ($n_all, $n_7)"
fi
for o in "" -O; do
	# shellcheck disable=SC2086
	t_expect_eq "broken frames never match 'erspan'${o:+ (no optimizer)}" \
	    0 "$("$count" $o "$b" erspan 2>&1)"
done

# --- decapsulated frames against tshark's inner layers -----------------
. "$SLUICE_SRCDIR/tests/erspan/lib-erspan.sh"
check_decap() {
	_file=$1
	_label=$2
	_inner=$TMPDIR/inner.pcap
	rm -f "$_inner"
	if ! _out=$("$count" -d "$_inner" "$_file" erspan 2>&1); then
		t_fail "$_label: decapsulate: $_out"
		return
	fi
	_want=$(ts_count "$_file" 'erspan && !(erspan.ft != 0)')
	t_expect_eq "$_label: frames decapsulated = tshark count" \
	    "$_want
$_want" "$_out"
	if [ "$_want" -eq 0 ]; then
		return
	fi
	erspan_check_inner "$_label" "$_file" "$_inner"
}
check_decap "$v" "variants"
erspan_check_lengths variants "$TMPDIR/inner.pcap" 146

# --- the sample captures ---------------------------------------------
if [ -d "$data" ]; then
	for f in "$data"/*.pcap; do
		name=$(basename "$f")
		want=$(ts_count "$f" 'erspan && !(erspan.ft != 0)')
		for o in "" -O; do
			# shellcheck disable=SC2086
			t_expect_eq "$name: 'erspan'${o:+ (no optimizer)} = tshark" \
			    "$want" "$("$count" $o "$f" erspan 2>&1)"
		done
		check_decap "$f" "$name"
	done
	f=$data/erspan-type-ii-1.pcap
	t_expect_eq "erspan-type-ii-1.pcap: 'erspan 666 and pim' = tshark" \
	    "$(ts_count "$f" 'erspan.spanid == 666 && pim')" \
	    "$("$count" "$f" 'erspan 666 and pim' 2>&1)"
	f=$data/erspan-type-ii-2.pcap
	t_expect_eq "erspan-type-ii-2.pcap: 'erspan 1 and udp port 1985' = tshark" \
	    "$(ts_count "$f" 'erspan.spanid == 1 && udp.port == 1985')" \
	    "$("$count" "$f" 'erspan 1 and udp port 1985' 2>&1)"
	f=$data/erspan-type-i-1.pcap
	t_expect_eq "erspan-type-i-1.pcap: 'erspan and vlan and icmp' = tshark" \
	    "$(ts_count "$f" 'icmp && vlan')" \
	    "$("$count" "$f" 'erspan and vlan and icmp' 2>&1)"
	t_expect_eq "erspan-type-i-1.pcap: 'erspan 0' excludes type I" \
	    0 "$("$count" "$f" 'erspan 0' 2>&1)"
else
	t_skip "sample captures" "$data is absent"
fi
t_done
