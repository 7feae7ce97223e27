#!/bin/sh
#
# make fuzz's options are checked before anything is built: a target
# that does not exist and a number of executions that is not one are
# refused with a message naming them, and exit status 1.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd clang
fuzz=$SLUICE_SRCDIR/build-aux/sluice-fuzz

err=$(SLUICE_FUZZ_TARGETS="erspan bogus" sh "$fuzz" "$SLUICE_SRCDIR" "$TMPDIR" 1 2>&1)
rc=$?
t_expect_eq "an unknown target is refused" \
    "1 sluice-fuzz: no fuzz target bogus (the targets: read compress-read erspan filter dump-options print)" \
    "$rc $err"
for runs in abc 0 -5; do
	err=$(SLUICE_FUZZ_RUNS=$runs sh "$fuzz" "$SLUICE_SRCDIR" "$TMPDIR" 1 2>&1)
	rc=$?
	t_expect_eq "FUZZ_RUNS=$runs is refused" \
	    "1 sluice-fuzz: FUZZ_RUNS must be a number of executions, not \"$runs\"" \
	    "$rc $err"
done
t_check "nothing was built for the refused runs" test ! -e "$TMPDIR/fuzz/Makefile"
t_done
