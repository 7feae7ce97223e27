#!/bin/sh
#
# The README's two commands are the ones that work: CI's .ci/run runs the
# test command verbatim, and the build command's targets exist.  The
# README is at most 150 lines and names INSTALL.md, CONTRIBUTING.md and
# doc/measurements.md, which exist.

. "$SLUICE_SRCDIR/tests/lib.sh"

readme=$SLUICE_SRCDIR/README
ci_cmd=$(grep -v '^#' "$SLUICE_SRCDIR/.ci/run" | grep 'sluice-deps')
t_check ".ci/run runs the README's test command verbatim" \
    grep -qxF "    $ci_cmd" "$readme"
build_cmd=$(grep -E '^    sh build-aux/sluice-deps .* make && make [a-z]+$' "$readme")
t_check "the README has a build-and-run command" test -n "$build_cmd"
target=${build_cmd##* }
# A rule of its own, not just a .PHONY entry (make -n accepts those).
t_check "its final target 'make $target' has a rule" \
    grep -q "^$target:" "$SLUICE_BUILDDIR/Makefile"

# The README stays short; the rest lives in the files it names.
lines=$(wc -l <"$readme")
t_check "the README has at most 150 lines ($lines)" test "$lines" -le 150
for doc in INSTALL.md CONTRIBUTING.md doc/measurements.md; do
	t_check "the README names $doc" grep -qF "$doc" "$readme"
	t_check "$doc exists" test -s "$SLUICE_SRCDIR/$doc"
done
t_done
