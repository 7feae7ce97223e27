#!/bin/sh
#
# A compiler without the GCC/Clang __atomic builtins (MSVC, say) gets a
# libpcap whose dumper options API is stubs: configure finds no builtins
# (forced here through its cache variable), the library builds, every
# declared function links, compressed writing is refused in one
# sentence, and plain savefiles still work.  Reading compressed
# savefiles needs no builtins, and works.

. "$SLUICE_SRCDIR/tests/lib.sh"

. "$SLUICE_SRCDIR/tests/build/lib-stubs.sh"
stub_build ac_cv_lbl_sfc_atomics=no
t_check "configure reports the builtins missing" \
    grep -q "checking for the __atomic builtins... (cached) no" "$obj/configure.log"
t_check "the writer is built (sf-compress-write.o), with the dumper's stubs" \
    sh -c "echo '$members' | grep -q '^sf-compress-write.o$' &&
        echo '$wsyms' | grep -q ' T pcap_dump_close_async$'"
t_check "no dumper or writer thread, which use the builtins, is built" \
    sh -c "! echo '$members' | grep -q -e '^sf-writer.o$' &&
        ! echo '$wsyms' | grep -q -e ' U fopencookie$' -e ' U pcapint_writer_start$'"
reader_syms
t_check "the reader is built with its stream, not without" \
    sh -c "echo '$rsyms' | grep -q ' U fopencookie$' &&
        echo '$rsyms' | grep -q ' T pcapint_sfc_stream_read$'"
stub_link "$TMPDIR/no-atomics"
"$TCPDUMP" -r "$SLUICE_BUILDDIR/src/tcpdump-$SLUICE_TCPDUMP_VERSION/tests/print-flags.pcap" \
    -w - 2>/dev/null | gzip -c >"$TMPDIR/flags.pcap.gz"
want=$("$TCPDUMP" -r "$TMPDIR/flags.pcap.gz" 2>/dev/null | wc -l)
t_expect_eq "compressed writing is refused, plain savefiles work, compressed ones are read" \
"open_with_options: compressed savefiles are not supported on this platform
open_with_options, no options: opened
pcap_dump_open: opened
pcap_dump_close_async_wait: 0
read: $want packets" "$("$TMPDIR/no-atomics" "$TMPDIR/flags.pcap.gz")"
t_done
