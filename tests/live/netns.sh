# shellcheck shell=sh disable=SC2034 # variables are for the sourcing script
# tests/live/netns.sh -- network namespace helpers for live tests.
#
# Source it from a test script (POSIX sh), then:
#
#	netns_setup		create two namespaces joined by a veth pair;
#				sets NS_A, NS_B (namespace names) and
#				VETH_A (in NS_A), VETH_B (in NS_B), all
#				unique per process ($$), links up, and
#				installs an EXIT/INT/TERM trap that removes
#				everything again.  Returns non-zero (with a
#				message on stderr) if anything failed.
#	netns_exec NS CMD...	run CMD in namespace NS (foreground).
#	netns_bg NS OUT ERR CMD...
#				run CMD in namespace NS in the background
#				with stdout to OUT and stderr to ERR; sets
#				NETNS_BG_PID.  The cleanup kills it if it is
#				still running.
#	netns_wait_for FILE PATTERN TRIES
#				wait until FILE contains PATTERN (grep -E),
#				checking every 0.1 s at most TRIES times.
#	netns_stop PID SIGNAL TRIES
#				send SIGNAL to PID, wait up to TRIES * 0.1 s
#				for it to exit (then SIGKILL), and set
#				NETNS_STATUS to its exit status (or 255 when
#				it had to be killed).
#	netns_cleanup		what the trap runs; safe to call twice.
#
# Only our own frames should appear on the veth pair, so that a capture
# can be counted exactly: IPv6 (router solicitations, DAD, MLD) is
# disabled in both namespaces before the links exist, no IPv4 address is
# configured (so no ARP), and ARP and multicast are switched off on the
# links.  Needs root and iproute2 ("ip netns").

NS_A=
NS_B=
VETH_A=
VETH_B=
NETNS_BG_PIDS=
NETNS_BG_PID=
NETNS_STATUS=

# shellcheck source=../lib-proc.sh
. "$SLUICE_SRCDIR/tests/lib-proc.sh"

netns_cleanup() {
	for _nc_pid in $NETNS_BG_PIDS; do
		kill -KILL "$_nc_pid" 2>/dev/null
		wait "$_nc_pid" 2>/dev/null
	done
	NETNS_BG_PIDS=
	# Deleting a namespace deletes the veth end in it, and its peer.
	if [ -n "$NS_A" ]; then
		ip netns del "$NS_A" 2>/dev/null
	fi
	if [ -n "$NS_B" ]; then
		ip netns del "$NS_B" 2>/dev/null
	fi
	NS_A=
	NS_B=
}

# _netns_quiet NS: turn off what would send frames of its own.
_netns_quiet() {
	ip netns exec "$1" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 &&
	ip netns exec "$1" sysctl -q -w net.ipv6.conf.default.disable_ipv6=1 &&
	ip netns exec "$1" sysctl -q -w net.ipv6.conf.all.accept_ra=0 &&
	ip netns exec "$1" sysctl -q -w net.ipv6.conf.default.accept_ra=0 &&
	ip netns exec "$1" sysctl -q -w net.ipv6.conf.default.dad_transmits=0 &&
	ip netns exec "$1" sysctl -q -w net.ipv6.conf.default.router_solicitations=0
}

netns_setup() {
	NS_A="sluice-a-$$"
	NS_B="sluice-b-$$"
	# Interface names are limited to 15 characters; a pid has at most 7.
	VETH_A="slva$$"
	VETH_B="slvb$$"
	trap 'netns_cleanup' EXIT
	trap 'netns_cleanup; trap - EXIT; exit 130' INT
	trap 'netns_cleanup; trap - EXIT; exit 143' TERM

	if ! ip netns add "$NS_A" || ! ip netns add "$NS_B"; then
		echo "netns_setup: cannot create network namespaces" >&2
		return 1
	fi
	if ! _netns_quiet "$NS_A" || ! _netns_quiet "$NS_B"; then
		echo "netns_setup: cannot disable IPv6 in the namespaces" >&2
		return 1
	fi
	# Created inside the namespaces, so they inherit the settings above.
	if ! ip link add "$VETH_A" netns "$NS_A" type veth \
	    peer name "$VETH_B" netns "$NS_B"; then
		echo "netns_setup: cannot create the veth pair" >&2
		return 1
	fi
	for _ns_pair in "$NS_A $VETH_A" "$NS_B $VETH_B"; do
		# shellcheck disable=SC2086 # split into namespace, link
		set -- $_ns_pair
		if ! ip -n "$1" link set dev "$2" arp off multicast off ||
		    ! ip netns exec "$1" sysctl -q -w \
		    "net.ipv6.conf.$2.disable_ipv6=1" ||
		    ! ip -n "$1" link set dev "$2" up ||
		    ! ip -n "$1" link set dev lo up; then
			echo "netns_setup: cannot configure $2 in $1" >&2
			return 1
		fi
	done
	return 0
}

# netns_live_setup [CMD...]: the start of a live test: root, ip and the
# commands named, sluice-gen and sluice-seqcheck built (GEN, CHK), the
# namespaces and veth pair up; whatever is missing ends the script.
netns_live_setup() {
	need_root
	need_cmd ip "$@"
	build_traffic_tools
	if ! netns_setup; then
		t_fail "create namespaces and veth pair"
		t_done
	fi
}

netns_exec() {
	_ne_ns=$1
	shift
	ip netns exec "$_ne_ns" "$@"
}

netns_bg() {
	_nb_ns=$1
	_nb_out=$2
	_nb_err=$3
	shift 3
	# "ip netns exec" execs the command, so $! is the command itself.
	ip netns exec "$_nb_ns" "$@" >"$_nb_out" 2>"$_nb_err" &
	NETNS_BG_PID=$!
	NETNS_BG_PIDS="$NETNS_BG_PIDS $NETNS_BG_PID"
}

netns_wait_for() {
	_nw_i=0
	while [ "$_nw_i" -lt "$3" ]; do
		if grep -E -q -- "$2" "$1" 2>/dev/null; then
			return 0
		fi
		sleep 0.1
		_nw_i=$((_nw_i + 1))
	done
	return 1
}

netns_stop() {
	_nst_pid=$1
	proc_stop "$1" "$2" "$3"
	NETNS_STATUS=$PROC_STATUS
	# Reaped: the cleanup must not kill a recycled pid.
	_nst_left=
	for _nst_p in $NETNS_BG_PIDS; do
		if [ "$_nst_p" != "$_nst_pid" ]; then
			_nst_left="$_nst_left $_nst_p"
		fi
	done
	NETNS_BG_PIDS=$_nst_left
}

# netns_rx_packets: frames the capture side (VETH_B in NS_B) has received.
netns_rx_packets() {
	ip netns exec "$NS_B" cat "/sys/class/net/$VETH_B/statistics/rx_packets"
}

# netns_teardown_check: remove the namespaces now and check (with
# tests/lib.sh's t_ok/t_fail) that nothing of them is left.
netns_teardown_check() {
	_ntc_a=$NS_A
	_ntc_b=$NS_B
	netns_cleanup
	if ip netns list | grep -q -e "$_ntc_a" -e "$_ntc_b"; then
		t_fail "namespaces removed"
	else
		t_ok "namespaces removed"
	fi
}
