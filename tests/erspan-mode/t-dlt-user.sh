#!/bin/sh
# DLT_USER0 to DLT_USER15 belong to users.  ERSPAN mode has a link-layer
# type of its own (a provisional value outside every range), so with
# our libpcap a savefile of a user type written by stock libpcap reads
# as it does with stock, a dead handle of a user type dumps and compiles
# filters as stock's does, and the names are stock's.  The same program
# runs against both libraries and their reports must be identical.
. "$SLUICE_SRCDIR/tests/lib.sh"

stock_lib=${STOCK_LD_LIBRARY_PATH:-}
if [ -z "$stock_lib" ] || [ ! -d "$stock_lib" ]; then
	echo "ok 1 - compare with stock libpcap # SKIP no stock libpcap was built"
	exit 0
fi

prog=$TMPDIR/dlt-user
if build_c "$prog" "$SLUICE_SRCDIR/tests/erspan-mode/dlt-user.c"; then
	t_ok "build dlt-user"
else
	t_fail "build dlt-user"
	t_done
fi

# The ERSPAN type's value is none of the user values.
t_check "DLT_ERSPAN is outside DLT_USER0..15 (147..162)" sh -c \
    "printf '#include <pcap/pcap.h>\n#if DLT_ERSPAN >= DLT_USER0 && DLT_ERSPAN <= DLT_USER15\n#error borrowed\n#endif\nint x;\n' |
    $CC $PCAP_CFLAGS -x c -c -o /dev/null -"

for dlt in 147 150 162; do
	f=$TMPDIR/user$dlt.pcap
	# Written by stock libpcap, as a user's existing capture would be.
	if ! LD_LIBRARY_PATH=$stock_lib "$prog" write "$f" "$dlt"; then
		t_fail "DLT $dlt: stock writes the savefile"
		continue
	fi
	LD_LIBRARY_PATH=$stock_lib "$prog" report "$f" "$dlt" \
	    >"$TMPDIR/stock$dlt.out" 2>&1
	"$prog" report "$f" "$dlt" >"$TMPDIR/ours$dlt.out" 2>&1
	t_check "DLT $dlt: stock reads 3 records (the test can tell)" \
	    grep -qx 'savefile end -2 (clean), 3 records' "$TMPDIR/stock$dlt.out"
	t_check "DLT $dlt: stock dumps the type as itself" \
	    grep -qx "dead dump linktype $dlt" "$TMPDIR/stock$dlt.out"
	if cmp -s "$TMPDIR/stock$dlt.out" "$TMPDIR/ours$dlt.out"; then
		t_ok "DLT $dlt: savefile, name, dump and filters as stock"
	else
		t_fail "DLT $dlt: savefile, name, dump and filters as stock"
		diff "$TMPDIR/stock$dlt.out" "$TMPDIR/ours$dlt.out" |
		    sed 's/^/#   /' | head -20
	fi
done

# tcpdump reads a user-type savefile as stock tcpdump does.
f=$TMPDIR/user162.pcap
if [ -n "${STOCK_TCPDUMP:-}" ] && [ -x "$STOCK_TCPDUMP" ]; then
	LD_LIBRARY_PATH=$stock_lib "$STOCK_TCPDUMP" -r "$f" -n -x \
	    >"$TMPDIR/td-stock.out" 2>&1
	"$TCPDUMP" -r "$f" -n -x >"$TMPDIR/td-ours.out" 2>&1
	t_check "tcpdump -r of a DLT_USER15 savefile prints as stock's" \
	    cmp "$TMPDIR/td-stock.out" "$TMPDIR/td-ours.out"
else
	t_skip "tcpdump -r of a DLT_USER15 savefile" "no STOCK_TCPDUMP"
fi
t_done
