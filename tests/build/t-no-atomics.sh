#!/bin/sh
#
# A compiler without the GCC/Clang __atomic builtins (MSVC, say) gets a
# libpcap whose dumper options API is stubs: configure finds no builtins
# (forced here through its cache variable), the library builds, every
# declared function links, compression is refused in one sentence, and
# plain savefiles still work.

. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
obj=$TMPDIR/obj
mkdir "$obj"
if ! (cd "$obj" && "$src/configure" ac_cv_lbl_sfc_atomics=no \
    CC="$CC" CFLAGS="-O1" >configure.log 2>&1); then
	t_fail "configure with ac_cv_lbl_sfc_atomics=no: $(tail -3 "$obj/configure.log")"
	t_done
fi
t_check "configure reports the builtins missing" \
    grep -q "checking for the __atomic builtins... (cached) no" "$obj/configure.log"
if ! make -C "$obj" -s libpcap.a >"$obj/make.log" 2>&1; then
	t_fail "libpcap.a builds: $(tail -3 "$obj/make.log")"
	t_done
fi
members=$(ar t "$obj/libpcap.a")
t_check "the stubs are built (sf-compress-noreader.o, sf-compress-nodumper.o, sf-compress-nothread.o)" \
    sh -c "echo '$members' | grep -q '^sf-compress-noreader.o$' &&
        echo '$members' | grep -q '^sf-compress-nodumper.o$' &&
        echo '$members' | grep -q '^sf-compress-nothread.o$'"
t_check "no dumper, writer thread or reader using the builtins is built" \
    sh -c "! echo '$members' | grep -q -e '^sf-writer.o$' -e '^sf-compress-dumper.o$' \
        -e '^sf-compress-reader.o$' -e '^sf-compress-seek.o$' -e '^sf-compress-resync.o$'"
# The libraries libpcap was configured to use (D-Bus, where its -dev
# package is installed) come with the static archive.
libs=$(sed -n 's/^LIBS = //p' "$obj/Makefile")
# shellcheck disable=SC2086
if ! $CC -I"$src" -o "$TMPDIR/no-atomics" \
    "$SLUICE_SRCDIR/tests/build/no-atomics.c" "$obj/libpcap.a" $libs \
    >"$TMPDIR/cc.log" 2>&1; then
	t_fail "a program using the whole API links: $(head -5 "$TMPDIR/cc.log")"
	t_done
fi
t_expect_eq "compression is refused, plain savefiles work" \
"set_compression: compression \"zstd\" is not supported by this build of libpcap
open_with_options: compressed savefiles are not supported on this platform
pcap_dump_open: opened
pcap_dump_close_async_wait: 0" "$("$TMPDIR/no-atomics")"
t_done
