#!/bin/sh
#
# A compiler without the GCC/Clang __atomic builtins (MSVC, say) gets a
# libpcap whose dumper options API is stubs: configure finds no builtins
# (forced here through its cache variable), the library builds, every
# declared function links, compressed writing is refused in one
# sentence, and plain savefiles still work.  Reading compressed
# savefiles needs no builtins, and works.

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
t_check "the dumper's stubs are built (sf-compress-nodumper.o, sf-compress-nothread.o)" \
    sh -c "echo '$members' | grep -q '^sf-compress-nodumper.o$' &&
        echo '$members' | grep -q '^sf-compress-nothread.o$'"
t_check "no dumper or writer thread, which use the builtins, is built" \
    sh -c "! echo '$members' | grep -q -e '^sf-writer.o$' -e '^sf-compress-dumper.o$'"
t_check "the reader is built, not its stub" \
    sh -c "echo '$members' | grep -q '^sf-compress-reader.o$' &&
        ! echo '$members' | grep -q '^sf-compress-noreader.o$'"
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
"$TCPDUMP" -r "$SLUICE_BUILDDIR/src/tcpdump-$SLUICE_TCPDUMP_VERSION/tests/print-flags.pcap" \
    -w - 2>/dev/null | gzip -c >"$TMPDIR/flags.pcap.gz"
want=$("$TCPDUMP" -r "$TMPDIR/flags.pcap.gz" 2>/dev/null | wc -l)
t_expect_eq "compressed writing is refused, plain savefiles work, compressed ones are read" \
"open_with_options: compressed savefiles are not supported on this platform
pcap_dump_open: opened
pcap_dump_close_async_wait: 0
read: $want packets" "$("$TMPDIR/no-atomics" "$TMPDIR/flags.pcap.gz")"
t_done
