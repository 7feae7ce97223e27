#!/bin/sh
#
# A -z command that is missing or fails must not touch the capture:
# every packet read with -r still reaches the rotated files (-C), with
# and without --compress and the writer thread, and each missing
# command is reported.  Until tcpdump's failed -z child left with
# _exit(), its exit() moved the offset of the savefile being read, and
# the read stopped with "invalid packet capture length".  tests/master
# runs this against the master series' tcpdump too.

. "$SLUICE_SRCDIR/tests/lib.sh"

build_traffic_tools
in=$TMPDIR/in.pcap
N=6000
"$GEN" --type random1518 --count $N --out "$in" 2>"$TMPDIR/gen.err" ||
	{ t_fail "write the input: $(cat "$TMPDIR/gen.err")"; t_done; }

# run LABEL ZCMD ARGS...: read $in, write 1 MB files rot*; the frames
# of all files together must be frames 0..N-1.
run() {
	_label=$1
	_z=$2
	shift 2
	_d=$TMPDIR/$_label
	mkdir "$_d"
	"$TCPDUMP" -r "$in" -C 1 -z "$_z" "$@" -w "$_d/rot" \
	    >/dev/null 2>"$_d/err"
	_rc=$?
	# Let the -z children finish before the files are counted (bounded).
	_i=0
	while [ $_i -lt 50 ] && pgrep -f "$_d/rot" >/dev/null 2>&1; do
		sleep 0.1
		_i=$((_i + 1))
	done
	t_expect_eq "$_label: exit status 0" 0 "$_rc"
	t_check "$_label: no read error" sh -c "! grep -q pcap_loop '$_d/err'"
	t_expect_eq "$_label: all $N frames are in the files" $N \
	    "$(frames_in "$_d"/rot*)"
}

run missing "$TMPDIR/no-such-command"
t_check "missing: each file's failed -z is reported" \
    grep -q "execlp($TMPDIR/no-such-command, $TMPDIR/missing/rot) failed: No such file or directory" \
    "$TMPDIR/missing/err"
# A tcpdump without --compress (upstream's, when the master series'
# check runs this test against it) runs the cases that do not need it.
if "$TCPDUMP" --help 2>&1 | grep -q -- '--compress'; then
	run missing-compressed "$TMPDIR/no-such-command" --compress=lz4 \
	    --writer-ring=4m
	run failing false --compress=zstd
else
	t_skip "missing-compressed" "this tcpdump has no --compress"
	run failing false
fi
t_done
