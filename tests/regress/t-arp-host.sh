#!/bin/sh
# "arp host NAME" and "rarp host NAME" match a name's IPv4 addresses and
# ignore its IPv6 ones (libpcap 1.10.6's fix, backported): a name with
# both compiles to the IPv4 address alone, where 1.10.5 failed with
# "'arp' modifier applied to ip6 host", and a name with IPv6
# addresses only is an unknown host for that address family.  The names
# resolve through /etc/hosts, which the test gives a private copy of: an
# overlay on /etc in a mount namespace of its own, so the system's /etc
# is never written.
. "$SLUICE_SRCDIR/tests/lib.sh"
need_root
need_cmd unshare mount

"$SLUICE_GEN" --type http --count 1 --out "$TMPDIR/one.pcap" >/dev/null 2>&1
mkdir "$TMPDIR/etc"
cat /etc/hosts >"$TMPDIR/etc/hosts"
cat >>"$TMPDIR/etc/hosts" <<'HOSTS'
192.0.2.40 sluice-dual
2001:db8::40 sluice-dual
2001:db8::41 sluice-v6only
HOSTS

# compile FILTER: tcpdump -d's output for FILTER, or its error, with the
# private /etc/hosts.
compile() {
	with_private_etc "$TMPDIR/etc" "$TCPDUMP" -r "$TMPDIR/one.pcap" -d "$1" 2>&1
}

for proto in arp rarp; do
	out=$(compile "$proto host sluice-dual")
	t_check "$proto host NAME, NAME with IPv4 and IPv6 addresses: compiles" \
	    sh -c "echo '$out' | grep -q 'ret'"
	t_check "... to a comparison with its IPv4 address (0xc0000228)" \
	    sh -c "echo '$out' | grep -q '#0xc0000228'"
	t_expect_eq "... and no error" "" "$(echo "$out" | grep '^tcpdump:')"
	out=$(compile "$proto host sluice-v6only")
	t_expect_eq "$proto host NAME, NAME with IPv6 addresses only: the error says why" \
	    "tcpdump: unknown host 'sluice-v6only' for specified address family" \
	    "$(echo "$out" | grep '^tcpdump:')"
done
out=$(compile "ip6 host sluice-dual")
t_check "ip6 host NAME still matches its IPv6 address" \
    sh -c "echo '$out' | grep -q '#0x40'"
t_check "the system's /etc/hosts is left as it was" sh -c \
    "! grep -qs sluice-dual /etc/hosts"
t_done
