#!/bin/sh
# Every fuzz target runs on its committed seed corpus and on every saved
# reproducer of a crash once found, without libFuzzer: in the plain
# build, and in the sanitizer build (make check-all) under
# AddressSanitizer and UndefinedBehaviorSanitizer, so a fixed crash stays
# fixed and each target keeps building.  "make fuzz" runs the fuzzers.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/fuzz/lib-fuzz.sh"

src=$SLUICE_SRCDIR
for t in $FUZZ_TARGETS; do
	prog=$TMPDIR/replay-$t
	# shellcheck disable=SC2046 # sources and libraries, split
	if ! build_c "$prog" -I"$src/tests/fuzz" $(fuzz_sources "$src" "$t" "$SLUICE_BUILDDIR") \
	    "$src/tests/fuzz/fuzz-replay.c" 2>"$TMPDIR/build.err"; then
		t_fail "$t: build the replay program"
		sed 's/^/#   /' "$TMPDIR/build.err" | head -20
		continue
	fi
	dirs=$src/tests/fuzz/corpus/$t
	if [ -d "$src/tests/fuzz/reproducers/$t" ]; then
		dirs="$dirs $src/tests/fuzz/reproducers/$t"
	fi
	# shellcheck disable=SC2086 # one or two directories
	want=$(find $dirs -type f ! -name '.*' | wc -l | tr -d ' ')
	# shellcheck disable=SC2086
	if out=$(timeout 120 "$prog" $dirs 2>"$TMPDIR/run.err"); then
		t_expect_eq "$t: all $want saved inputs run cleanly" \
		    "$want inputs" "$out"
	else
		t_fail "$t: replaying the saved inputs: $(head -5 "$TMPDIR/run.err")"
	fi
done

# The replay must be able to fail: a missing input is an error.
if "$TMPDIR/replay-read" "$TMPDIR/no-such-input" >/dev/null 2>&1; then
	t_fail "a missing input makes the replay fail"
else
	t_ok "a missing input makes the replay fail"
fi
t_done
