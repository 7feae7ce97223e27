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
# must stay until the header replaces them; each with and without a
# writer thread.

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
preload_shim setupwatch

# Each run twice: with the dumper writing on the program's thread, and
# with a writer thread, which starts before the file is opened and
# writes the header itself.  With the thread, -C sees the bytes on disk,
# which lag behind by up to the ring (1 MiB) and a block, so the files
# are fewer and larger.
for writer in none ring; do
	d=$TMPDIR/out-$writer
	mkdir "$d"
	opt=
	min_files=8
	if [ $writer = ring ]; then
		opt=--writer-ring=1m
		min_files=3
	fi
	for run in new existing; do
		what="$run names, writer thread: $writer"
		env LD_PRELOAD="$shim" SLUICE_SETUPWATCH_DIR="$d" \
		    "$TCPDUMP" -r "$in" -C 1 --compress=zstd $opt -w "$d/cap" \
		    >/dev/null 2>"$TMPDIR/$writer-$run.err"
		t_expect_eq "$what: exit status 0" 0 $?
		setups=$(sed -n 's/^setupwatch: \([0-9]*\) dumpers set up$/\1/p' \
		    "$TMPDIR/$writer-$run.err")
		setups=${setups:-0}
		# The run's files are cap, cap1, ... cap<setups - 1>.  With
		# the thread their number varies from run to run, so the
		# second run may leave a file of the first one behind, as
		# stock tcpdump does; only the run's own files are counted.
		t_check "$what: at least $min_files and fewer than 100 dumpers set up ($setups)" \
		    test "$setups" -ge $min_files -a "$setups" -lt 100
		set -- "$d/cap"
		i=1
		while [ $i -lt "$setups" ] && [ $i -lt 100 ]; do
			set -- "$@" "$d/cap$i"
			i=$((i + 1))
		done
		missing=
		for f in "$@"; do
			[ -f "$f" ] || missing="$missing $f"
		done
		t_expect_eq "$what: every file a dumper was set up for exists" \
		    "" "$missing"
		if [ $run = new ]; then
			t_expect_eq "$what: no other file" "$setups" \
			    "$(ls "$d" | wc -l)"
		fi
		t_expect_eq "$what: no file is empty while a dumper is set up" \
		    "" "$(grep 'is empty while' "$TMPDIR/$writer-$run.err")"
		t_expect_eq "$what: all $N frames are in the files" $N \
		    "$(frames_in "$@")"
	done
done
t_done
