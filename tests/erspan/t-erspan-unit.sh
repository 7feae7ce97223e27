#!/bin/sh
# ERSPAN decapsulator unit test, and its exact agreement with the
# "erspan" filter primitive (optimized and not) on every crafted
# variant, every breakage, every truncation length and 60000 randomly
# corrupted frames.
. "$SLUICE_SRCDIR/tests/lib.sh"

src=$SLUICE_SRCDIR
prog=$TMPDIR/erspan-unit
if ! build_c "$prog" -I"$src/tests/erspan/standalone" -I"$src/libpcap" -I"$src/tests/gen" \
    "$src/tests/erspan/erspan-unit.c" "$src/libpcap/pcap-erspan.c" \
    "$src/tests/gen/erspan-craft.c"; then
	t_fail "build erspan-unit"
	t_done
fi
t_ok "build erspan-unit"

t_check "decapsulator: variants, fields, truncations, breakage reasons" \
    "$prog" decap
t_check "filter agrees with decapsulator (erspan, erspan 7, inner filters, -O and not)" \
    "$prog" agree
t_check "filter agrees with decapsulator on corrupted frames" \
    "$prog" fuzz

# The test must be able to fail: a wrong mode is an error.
if "$prog" nosuchmode >/dev/null 2>&1; then
	t_fail "unknown mode rejected"
else
	t_ok "unknown mode rejected"
fi
t_done
