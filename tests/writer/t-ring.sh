#!/bin/sh
#
# The writer thread's ring (libpcap/sf-writer.c, with where it runs and
# the clock of its timed waits), unit-tested on its own (ring-test.c
# includes sf-writer.c, to reach its static helpers):
# once under ThreadSanitizer, which must report no data race, and once
# built like the rest of the tests (AddressSanitizer and UBSan in a
# sanitizer build).

. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
obj=$SLUICE_BUILDDIR/obj/libpcap
# The build's config.h says what the platform has (CPU affinity, thread
# names), as it does for libpcap itself.
inc="-DHAVE_CONFIG_H -I$obj -I$src"

# run_variant NAME FLAGS
run_variant() {
	# shellcheck disable=SC2086
	if ! $CC $2 $inc -o "$TMPDIR/ring-$1" \
	    "$SLUICE_SRCDIR/tests/writer/ring-test.c" \
	    -lpthread >"$TMPDIR/build-$1.log" 2>&1; then
		t_fail "$1: build"
		sed 's/^/#   /' "$TMPDIR/build-$1.log" | head -20
		return
	fi
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$TMPDIR/ring-$1" >"$TMPDIR/out-$1" 2>&1
	rc=$?
	t_relay "$TMPDIR/out-$1" "$1: "
	if [ $rc -eq 0 ] && ! grep -q "WARNING: ThreadSanitizer" "$TMPDIR/out-$1"; then
		t_ok "$1: exits 0 with no sanitizer report"
	else
		t_fail "$1: exit status $rc"
		grep -A12 "WARNING\|ERROR" "$TMPDIR/out-$1" | head -30 | sed 's/^/#   /'
	fi
}

run_variant tsan "-g -O1 -fsanitize=thread -Wall -Wextra"
run_variant plain "$CFLAGS"
t_done
