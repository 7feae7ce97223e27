#!/bin/sh
#
# How the dumper times its codec (libpcap/sf-compress-write.c), unit-
# tested with tests/adapt/encoder-test.c: the first block an encoder
# compresses at a level is marked cold, and the level controller leaves
# its CPU time out (adapt-test.c models that side).  The test calls
# pcapint_sfc_block_compress() itself, so it is linked with the build's static
# libpcap.a and the libraries libpcap was linked with, and built with the
# build's flags (AddressSanitizer and UBSan in a sanitizer build).

. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
obj=$SLUICE_BUILDDIR/obj/libpcap

if ! [ -f "$obj/libpcap.a" ]; then
	t_skip "encoder-test" "no $obj/libpcap.a to link with"
	t_done
fi
libs=$(sed -n 's/^LIBS *= *//p' "$obj/Makefile")
# shellcheck disable=SC2086
if ! $CC $CFLAGS -DHAVE_CONFIG_H -I"$obj" -I"$src" -o "$TMPDIR/encoder" \
    "$SLUICE_SRCDIR/tests/adapt/encoder-test.c" "$obj/libpcap.a" $libs \
    -lpthread >"$TMPDIR/build.log" 2>&1; then
	t_fail "build encoder-test"
	sed 's/^/#   /' "$TMPDIR/build.log" | head -20
	t_done
fi
"$TMPDIR/encoder" >"$TMPDIR/out" 2>&1
rc=$?
t_relay "$TMPDIR/out"
t_check "encoder-test exits 0 with no sanitizer report" sh -c \
    "[ $rc = 0 ] && ! grep -q 'Sanitizer\|runtime error' '$TMPDIR/out'"
t_done
