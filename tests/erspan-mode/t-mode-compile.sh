#!/bin/sh
# ERSPAN mode (DLT_ERSPAN) programs: for any expression EXPR, the program
# compiled for DLT_ERSPAN must be exactly that of "erspan and EXPR" on
# Ethernet (with and without the optimizer), except that it accepts
# snaplen + 118 bytes (the longest outer header) so that -s applies to
# the inner frame; an empty expression must still be the ERSPAN test;
# --erspan=SESSION must add the session test; and bad input must fail
# clearly.  Also the API checks of erspan-mode-api.c (names, dump link
# type, errors, savefile switching).
. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_SRCDIR
api=$TMPDIR/erspan-mode-api
gen=$TMPDIR/erspan-pcap
if build_c "$api" "$src/tests/erspan-mode/erspan-mode-api.c" &&
    build_c "$gen" "$src/tests/gen/erspan-pcap.c" "$src/tests/gen/erspan-craft.c"; then
	t_ok "build erspan-mode-api and erspan-pcap"
else
	t_fail "build erspan-mode-api and erspan-pcap"
	t_done
fi

# prog DLT SNAPLEN [tcpdump options] EXPR: the program tcpdump -d prints
# for a dead handle of that DLT, with the accept value "ret #N" renamed.
prog() {
	_dlt=$1
	_snap=$2
	shift 2
	"$TCPDUMP" -y "$_dlt" -s "$_snap" -d "$@" 2>"$TMPDIR/prog.err"
}

same_program() {
	_expr=$1
	_o=$2
	# shellcheck disable=SC2086
	_m=$(prog ERSPAN 1000 $_o "$_expr") || {
		t_fail "-y ERSPAN -d${_o:+ $_o} '$_expr': $(cat "$TMPDIR/prog.err")"
		return
	}
	# shellcheck disable=SC2086
	_e=$(prog EN10MB 1000 $_o "erspan${_expr:+ and ($_expr)}") || {
		t_fail "-y EN10MB -d${_o:+ $_o} 'erspan and $_expr': $(cat "$TMPDIR/prog.err")"
		return
	}
	_macc=$(printf '%s\n' "$_m" | grep -c 'ret *#1118$')
	_eacc=$(printf '%s\n' "$_e" | grep -c 'ret *#1000$')
	_m=$(printf '%s\n' "$_m" | sed 's/ret *#1118$/ret #ACCEPT/')
	_e=$(printf '%s\n' "$_e" | sed 's/ret *#1000$/ret #ACCEPT/')
	if [ "$_macc" -ge 1 ] && [ "$_macc" = "$_eacc" ] && [ "$_m" = "$_e" ] &&
	    [ "$(printf '%s\n' "$_m" | wc -l)" -gt 100 ]; then
		t_ok "ERSPAN '$_expr'${_o:+ ($_o)} = EN10MB 'erspan and $_expr', accepting 1000 + 118"
	else
		t_fail "ERSPAN '$_expr'${_o:+ ($_o)} = EN10MB 'erspan and $_expr', accepting 1000 + 118"
		printf '%s\n' "$_m" >"$TMPDIR/m.txt"
		printf '%s\n' "$_e" >"$TMPDIR/e.txt"
		diff "$TMPDIR/e.txt" "$TMPDIR/m.txt" | head -10 | sed 's/^/#   /'
	fi
}

while read -r expr; do
	for o in "" -O; do
		same_program "$expr" "$o"
	done
done <<EXPRS
tcp port 80
vlan and udp
ip6 and tcp
not arp
ether host 02:00:5e:20:00:01 and icmp
erspan 3 and ip
tcp[13] = 0x18 and ip host 192.168.0.2
EXPRS

# The empty expression: optimized, it is the "erspan" program itself;
# unoptimized, the same test plus an always-true block.
m=$(prog ERSPAN 1000 "" | sed 's/ret *#1118$/ret #ACCEPT/')
e=$(prog EN10MB 1000 erspan | sed 's/ret *#1000$/ret #ACCEPT/')
if [ -n "$m" ] && [ "$m" = "$e" ]; then
	t_ok "ERSPAN '' = EN10MB 'erspan' (an empty filter keeps only ERSPAN)"
else
	t_fail "ERSPAN '' = EN10MB 'erspan' (an empty filter keeps only ERSPAN)"
fi
n=$(prog ERSPAN 1000 -O "" | grep -c .)
t_check "ERSPAN '' unoptimized is the ERSPAN test too ($n instructions)" \
    test "$n" -gt 100
t_check "ERSPAN '' unoptimized ends with ret #1118, ret #0" \
    sh -c "'$TCPDUMP' -y ERSPAN -s 1000 -O -d '' 2>/dev/null | tail -2 | tr -s ' ' | grep -q 'ret #1118' "

# The default snapshot length: 262144 + 118.
t_check "ERSPAN with the default snapshot length accepts 262262" \
    sh -c "'$TCPDUMP' -y ERSPAN -d 'tcp' 2>/dev/null | grep -q 'ret *#262262'"

# --erspan=SESSION: the session test goes into the program.
m=$("$TCPDUMP" --erspan=7 -s 1000 -d 'tcp port 80' 2>&1 | sed 's/ret *#1118$/ret #ACCEPT/')
e=$(prog EN10MB 1000 'erspan 7 and tcp port 80' | sed 's/ret *#1000$/ret #ACCEPT/')
if [ -n "$e" ] && [ "$m" = "$e" ]; then
	t_ok "--erspan=7 'tcp port 80' = EN10MB 'erspan 7 and tcp port 80'"
else
	t_fail "--erspan=7 'tcp port 80' = EN10MB 'erspan 7 and tcp port 80'"
fi
m=$("$TCPDUMP" --erspan -s 1000 -d 'tcp port 80' 2>&1)
e=$(prog ERSPAN 1000 'tcp port 80')
t_expect_eq "--erspan -d = -y ERSPAN -d" "$e" "$m"

# Bad input.
expect_error() {
	_desc=$1
	_want=$2
	shift 2
	if _err=$("$@" 2>&1); then
		t_fail "$_desc: succeeded"
	else
		case $_err in
		*"$_want"*) t_ok "$_desc" ;;
		*) t_fail "$_desc: '$_err'" ;;
		esac
	fi
}
expect_error "--erspan=1024 is refused" "invalid ERSPAN session \"1024\" (0-1023)" \
    "$TCPDUMP" --erspan=1024 -d ''
expect_error "--erspan=7x is refused" "invalid ERSPAN session \"7x\"" \
    "$TCPDUMP" --erspan=7x -d ''
expect_error "--erspan= is refused" "invalid ERSPAN session \"\" (0-1023)" \
    "$TCPDUMP" --erspan= -d ''
expect_error "--erspan with -y EN10MB is refused" \
    "--erspan and -y EN10MB are mutually exclusive" \
    "$TCPDUMP" --erspan -y EN10MB -d ''
expect_error "-y EN10MB with --erspan is refused" \
    "--erspan and -y EN10MB are mutually exclusive" \
    "$TCPDUMP" -y EN10MB --erspan=3 -d ''
expect_error "-y ERSPAN 'erspan 2000' is refused" \
    "ERSPAN session ID 2000 greater than maximum 1023" \
    "$TCPDUMP" -y ERSPAN -d 'erspan 2000'

# libpcap's filtertest, when our build tree has it.
ft=$SLUICE_BUILDDIR/obj/libpcap/testprogs/filtertest
if make -s -C "$SLUICE_BUILDDIR/obj/libpcap" testprogs >"$TMPDIR/testprogs.log" 2>&1 &&
    [ -x "$ft" ]; then
	for o in "" -O; do
		# shellcheck disable=SC2086
		m=$("$ft" $o -s 1000 ERSPAN 'udp port 53' 2>&1 | sed 's/ret *#1118$/ret #ACCEPT/')
		# shellcheck disable=SC2086
		e=$("$ft" $o -s 1000 EN10MB 'erspan and udp port 53' 2>&1 | sed 's/ret *#1000$/ret #ACCEPT/')
		if [ -n "$e" ] && [ "$m" = "$e" ]; then
			t_ok "filtertest${o:+ $o} ERSPAN 'udp port 53' = EN10MB 'erspan and udp port 53'"
		else
			t_fail "filtertest${o:+ $o} ERSPAN 'udp port 53' = EN10MB 'erspan and udp port 53'"
		fi
	done
else
	t_skip "filtertest" "cannot build libpcap's testprogs in $SLUICE_BUILDDIR/obj/libpcap"
fi

# Ordinary expressions compile exactly as with stock libpcap (when the
# harness built it): the mode changes nothing outside DLT_ERSPAN.
if [ -n "${SLUICE_MASTER_SERIES:-}" ]; then
	# Stock here is libpcap 1.10.5, whose code generator master has
	# since changed; TESTrun's rows check master's ordinary programs.
	t_skip "ordinary programs equal stock libpcap's" \
	    "stock is 1.10.5, not the master snapshot"
elif [ -n "${STOCK_TCPDUMP:-}" ] && [ -x "$STOCK_TCPDUMP" ]; then
	n=0
	bad=
	while IFS='|' read -r dlt expr; do
		for o in "" -O; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			ours=$("$TCPDUMP" -y "$dlt" $o -d "$expr" 2>&1)
			# shellcheck disable=SC2086
			stock=$(LD_LIBRARY_PATH=$STOCK_LD_LIBRARY_PATH \
			    "$STOCK_TCPDUMP" -y "$dlt" $o -d "$expr" 2>&1)
			[ "$ours" = "$stock" ] || bad="$bad [$dlt$o '$expr']"
		done
	done <<ORDINARY
EN10MB|
EN10MB|tcp port 80
EN10MB|vlan 100 and vlan 200 and ip
EN10MB|ip6 and tcp
EN10MB|geneve and ip
EN10MB|mpls and ip
EN10MB|pppoes and ip
EN10MB|host 10.0.0.1 and (udp or icmp)
LINUX_SLL|tcp port 80
LINUX_SLL2|udp
RAW|ip
IEEE802_11_RADIO|type mgt
DOCSIS|link[0] = 1
USER14|link[0] = 1
ORDINARY
	t_expect_eq "$n ordinary programs equal stock libpcap's" "" "$bad"
else
	t_skip "ordinary programs equal stock libpcap's" "no STOCK_TCPDUMP"
fi

# The API, offline.
"$gen" "$TMPDIR/v.pcap" variants >/dev/null 2>&1
"$gen" "$TMPDIR/b.pcap" broken >/dev/null 2>&1
# variants then broken, as one Ethernet savefile: skip the second header.
{ cat "$TMPDIR/v.pcap"; tail -c +25 "$TMPDIR/b.pcap"; } >"$TMPDIR/mixed.pcap"
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\145\000\000\000' \
    >"$TMPDIR/raw.pcap"
nv=$("$TCPDUMP" -r "$TMPDIR/v.pcap" --count 2>/dev/null | sed -n 's/ packets*$//p')
nb=$("$TCPDUMP" -r "$TMPDIR/b.pcap" --count 2>/dev/null | sed -n 's/ packets*$//p')
if out=$("$api" "$TMPDIR" "$TMPDIR/mixed.pcap" "$TMPDIR/raw.pcap" 2>"$TMPDIR/api.err"); then
	t_ok "erspan-mode-api checks"
else
	t_fail "erspan-mode-api checks"
	sed 's/^/#   /' "$TMPDIR/api.err"
fi
# Every crafted variant is ERSPAN, every broken frame is not.
t_expect_eq "no filter, savefile: $nv ERSPAN frames delivered, $nb counted" \
    "delivered $nv malformed $nb" "$out"
t_check "the crafted files are not empty ($nv, $nb)" test "$nv" -gt 100 -a "$nb" -gt 10
t_done
