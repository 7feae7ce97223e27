#!/bin/sh
#
# The compression level controller and its ladders
# (libpcap/sf-compress-adapt.c), unit-tested with synthetic timings
# (tests/adapt/adapt-test.c): once under AddressSanitizer and
# UndefinedBehaviorSanitizer as strict C99 with warnings as errors,
# and once built like the rest of the tests.  The controller is a pure
# function, so it is compiled straight into the test program against
# the prepared libpcap tree's config.h.

. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
obj=$SLUICE_BUILDDIR/obj/libpcap
inc="-I$SLUICE_SRCDIR/libpcap -I$obj -I$src"

# run_variant NAME FLAGS
run_variant() {
	# shellcheck disable=SC2086
	if ! $CC $2 $inc -o "$TMPDIR/adapt-$1" \
	    "$SLUICE_SRCDIR/tests/adapt/adapt-test.c" \
	    "$SLUICE_SRCDIR/libpcap/sf-compress-adapt.c" \
	    >"$TMPDIR/build-$1.log" 2>&1; then
		t_fail "$1: build"
		sed 's/^/#   /' "$TMPDIR/build-$1.log" | head -20
		return
	fi
	"$TMPDIR/adapt-$1" >"$TMPDIR/out-$1" 2>&1
	rc=$?
	t_relay "$TMPDIR/out-$1" "$1: "
	n=$(wc -l <"$TMPDIR/out-$1.lines")
	if [ $rc -eq 0 ] && [ "$n" -ge 30 ] &&
	    ! grep -q "Sanitizer\|runtime error" "$TMPDIR/out-$1"; then
		t_ok "$1: exits 0 after $n checks with no sanitizer report"
	else
		t_fail "$1: exit status $rc after $n checks"
		grep -B2 -A12 "Sanitizer\|runtime error" "$TMPDIR/out-$1" |
		    head -30 | sed 's/^/#   /'
	fi
}

run_variant asan-ubsan "-g -O1 -std=c99 -pedantic -Wall -Wextra -Werror \
-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
run_variant plain "$CFLAGS"
t_done
