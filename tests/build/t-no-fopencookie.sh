#!/bin/sh
#
# A C library without fopencookie() (macOS and the BSDs but FreeBSD)
# gets a libpcap without the dumper or the reader of compressed
# savefiles, pthreads or not: configure finds no fopencookie() (forced
# here through its cache variable) while pthreads are there, the
# library builds and every function pcap.h declares links (the writer
# thread, which needs the dumper, is left out: of sf-writer.c only the
# checks of where it would run are built, for the writer options),
# compressed writing is refused in one sentence, no options give the
# plain dumper, and plain savefiles are read and written.

. "$SLUICE_SRCDIR/tests/lib.sh"

. "$SLUICE_SRCDIR/tests/build/lib-stubs.sh"
stub_build ac_cv_func_fopencookie=no
t_check "configure reports fopencookie() missing" \
    grep -q "checking for fopencookie... (cached) no" "$obj/configure.log"
t_check "... and pthreads there" grep -q '^#define HAVE_PTHREADS 1' "$obj/config.h"
t_check "the dumper's stubs are built" \
    sh -c "echo '$members' | grep -q '^sf-compress-write.o$' &&
        echo '$wsyms' | grep -q ' T pcap_dump_close_async$'"
reader_syms
t_check "the reader is built without its stream, which needs fopencookie()" \
    sh -c "echo '$rsyms' | grep -q ' T pcapint_compressed_check_header$' &&
        ! echo '$rsyms' | grep -q -e ' U fopencookie$' \
            -e ' T pcapint_sfc_stream_read$'"
t_check "no dumper and no writer thread, which needs one, is built" \
    sh -c "! echo '$wsyms' | grep -q -e ' U fopencookie$' -e ' U pcapint_writer_start$' &&
        ! nm '$obj/libpcap.a' | grep -q ' T pcapint_writer_start$'"
stub_link "$TMPDIR/no-cookie"
flags=$SLUICE_BUILDDIR/src/tcpdump-$SLUICE_TCPDUMP_VERSION/tests/print-flags.pcap
want=$("$TCPDUMP" -r "$flags" 2>/dev/null | wc -l)
t_expect_eq "compressed writing is refused, no options give the plain dumper, plain savefiles work" \
"set_compression: compression \"zstd\" is not supported by this build of libpcap
open_with_options: compressed savefiles are not supported on this platform
open_with_options, no options: opened
pcap_dump_open: opened
pcap_dump_close_async_wait: 0
read: $want packets" "$("$TMPDIR/no-cookie" "$flags")"
t_done
