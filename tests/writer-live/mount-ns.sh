# shellcheck shell=sh
# tests/writer-live/mount-ns.sh -- source first, before tests/lib.sh: as
# root, runs the sourcing script again in a private mount namespace
# (unshare -m), so that what it mounts goes away with it, however it
# ends.  After netns_live_setup (which skips without unshare or mount),
# mount_ns_check fails the script if it still runs outside one.

if [ -z "${SLUICE_MOUNT_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
    [ "$(id -u)" = 0 ]; then
	SLUICE_MOUNT_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

mount_ns_check() {
	[ -n "${SLUICE_MOUNT_NS:-}" ] && return 0
	t_fail "run in a private mount namespace (unshare -m)"
	t_done
}
