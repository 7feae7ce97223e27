#!/bin/sh
#
# pcap_dump_open_with_options() sets a dumper up before it creates or
# truncates its file, and then writes the file header at once, so that
# a program killed while a dumper is being set up (the encoder, the
# buffers, the stream: long, under load or a sanitizer) leaves no empty
# file.  t-sigkill-rotate.sh kills at random moments, which finds a
# wrong order only now and then; this checks the order itself, with an
# LD_PRELOAD shim (setupwatch.c) that lists the empty files of the
# output directory whenever a dumper's stream is set up.  Run twice in
# one directory: new names, then names that exist, whose old contents
# must stay until the header replaces them.

. "$SLUICE_SRCDIR/tests/lib.sh"

if ! "$TCPDUMP" --help 2>&1 | grep -q -- '--compress'; then
	echo "1..0 # SKIP this tcpdump has no --compress"
	exit 77
fi
build_traffic_tools
in=$TMPDIR/in.pcap
N=6000
# 9 MB that does not compress: -C 1 makes about 9 files.
"$GEN" --type random1518 --count $N --out "$in" 2>"$TMPDIR/gen.err" ||
	{ t_fail "write the input: $(cat "$TMPDIR/gen.err")"; t_done; }
shim=$TMPDIR/setupwatch.so
# Not with the build's sanitizer flags: a preloaded library comes before
# the sanitizer runtime, which ASan allows only when told to.
if ! $CC -shared -fPIC -O1 -o "$shim" \
    "$SLUICE_SRCDIR/tests/faults/setupwatch.c" -ldl; then
	t_fail "build the setupwatch shim"
	t_done
fi
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

d=$TMPDIR/out
mkdir "$d"
for run in new existing; do
	env LD_PRELOAD="$shim" SLUICE_SETUPWATCH_DIR="$d" \
	    "$TCPDUMP" -r "$in" -C 1 --compress=zstd -w "$d/cap" \
	    >/dev/null 2>"$TMPDIR/$run.err"
	t_expect_eq "$run names: exit status 0" 0 $?
	files=$(ls "$d" | wc -l)
	setups=$(sed -n 's/^setupwatch: \([0-9]*\) dumpers set up$/\1/p' \
	    "$TMPDIR/$run.err")
	t_check "$run names: a dumper set up for each of the $files files (${setups:-none})" \
	    test "${setups:-0}" -ge "$files" -a "$files" -ge 8
	t_expect_eq "$run names: no file is empty while a dumper is set up" \
	    "" "$(grep 'is empty while' "$TMPDIR/$run.err")"
	t_expect_eq "$run names: all $N frames are in the files" $N \
	    "$(frames_in "$d"/cap*)"
done
t_done
