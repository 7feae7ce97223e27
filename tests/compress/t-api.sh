#!/bin/sh
#
# The compressed-dumper API from a C program (sfc-api.c): argument
# errors, NULL options giving a plain dumper, statistics that grow
# safely, a sticky write error that counts every lost record and keeps
# the FILE error flag clear, incompressible data stored with bounded
# overhead and the adaptive skip, pcap_dump() and fwrite() on the same
# dumper, and "-" for the standard output.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd cmp
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

t_check "invalid codecs, levels and block sizes are refused clearly" \
    "$API" errors

for c in $CODECS none; do
	if [ -w /dev/full ]; then
		t_check "$c to /dev/full: sticky ENOSPC, every record counted as lost" \
		    "$API" full $c
	else
		t_skip "$c to /dev/full" "no /dev/full"
	fi
	t_check "$c, incompressible records: stored, overhead bounded, codec skipped" \
	    "$API" random "$TMPDIR/r.$c" $c 65536 1000
	n=$("$API" read "$TMPDIR/r.$c" | sed -n 1p)
	t_expect_eq "$c, incompressible records read back" 1000 "$n"
done

in=$PCAPS/afs.pcap
"$TCPDUMP" -r "$in" -w "$TMPDIR/plain.pcap" 2>/dev/null
for c in $CODECS none; do
	rm -f "$TMPDIR/back" "$TMPDIR/mixed.plain"
	t_check "$c: pcap_dump() and fwrite() by hand, turn about: one stream" \
	    "$API" mixed "$in" "$TMPDIR/mixed.$c" $c "$TMPDIR/mixed.plain"
	t_check "$c: the mixed file reads back as the plain dumper's of the same calls" sh -c \
	    "'$TCPDUMP' -r '$TMPDIR/mixed.$c' -w '$TMPDIR/back' 2>/dev/null && cmp '$TMPDIR/back' '$TMPDIR/mixed.plain'"
	t_expect_eq "$c: the plain dumper written in between holds a record for each of the input's" \
	    "$("$API" read "$TMPDIR/plain.pcap" | sed -n 1p)" \
	    "$("$API" read "$TMPDIR/mixed.plain" | sed -n 1p)"
done
for c in $CODECS; do
	rm -f "$TMPDIR/back"
	"$API" write "$in" - $c 65536 2>/dev/null |
	    "$TCPDUMP" -r - -w "$TMPDIR/back" 2>/dev/null
	t_check "$c to \"-\" (standard output), read from a pipe" \
	    cmp "$TMPDIR/back" "$TMPDIR/plain.pcap"
done

t_done
