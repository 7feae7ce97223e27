#!/bin/sh
#
# tcpdump's own test suite (tests/TESTrun, ~650 pcaps decoded and diffed
# against expected output) run against OUR tcpdump and libpcap, and against
# stock tcpdump built from the same tarball in the same run.  We are a
# drop-in: nothing stock passes may fail with us.  The stock baseline on
# Debian 12 is 636 passed, 0 failed, 11 skipped.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd perl

# run_testrun OBJDIR SRCDIR TCPDUMP LIBDIR OUT: TESTrun reads config.h from
# its working directory, so it runs in the build directory.
run_testrun() {
	(cd "$1" && TCPDUMP_BIN=$3 srcdir=$2 LD_LIBRARY_PATH=$4 \
	    perl "$2/tests/TESTrun") >"$5" 2>&1
}

# count WHAT OUT: the "N tests WHAT" figure of TESTrun's summary.
count() {
	sed -n "s/^ *\([0-9][0-9]*\) tests $1\$/\1/p" "$2" | tail -1
}

obj=$SLUICE_BUILDDIR/obj/tcpdump
src=$SLUICE_BUILDDIR/src/tcpdump-$SLUICE_TCPDUMP_VERSION
stock_obj=$SLUICE_BUILDDIR/obj/stock-tcpdump
stock_src=$SLUICE_BUILDDIR/src/stock-tcpdump-$SLUICE_TCPDUMP_VERSION

# Both at once: each writes only in its own build directory, and each
# runs one tcpdump at a time.
run_testrun "$obj" "$src" "$TCPDUMP" "$LD_LIBRARY_PATH" "$TMPDIR/ours.out" &
run_testrun "$stock_obj" "$stock_src" "$STOCK_TCPDUMP" "$STOCK_LD_LIBRARY_PATH" "$TMPDIR/stock.out"
wait

p=$(count passed "$TMPDIR/ours.out")
f=$(count failed "$TMPDIR/ours.out")
s=$(count skipped "$TMPDIR/ours.out")
sp=$(count passed "$TMPDIR/stock.out")
sf=$(count failed "$TMPDIR/stock.out")
ss=$(count skipped "$TMPDIR/stock.out")

if [ -z "$p" ] || [ -z "$f" ]; then
	t_fail "TESTrun with our tcpdump printed no summary"
	tail -20 "$TMPDIR/ours.out" | sed 's/^/#   /'
	t_done
fi
echo "# summary: tcpdump TESTrun, ours:  $p passed, $f failed, $s skipped"
echo "# summary: tcpdump TESTrun, stock: $sp passed, $sf failed, $ss skipped"

t_expect_eq "stock tcpdump fails no upstream test" 0 "$sf"
if [ "$f" -eq 0 ]; then
	t_ok "our tcpdump fails no upstream test"
else
	t_fail "our tcpdump fails $f upstream tests"
	grep -E ': (failed|.*exit code)' "$TMPDIR/ours.out" | head -20 | sed 's/^/#   /'
fi
# Our ERSPAN printer's rows add to the list and never take from it.
rows=$(grep -c '^erspan-' "$src/tests/TESTLIST")
if [ "$p" -eq $((sp + rows)) ] && [ "$sp" -ge 636 ]; then
	t_ok "our tcpdump passes what stock passes and our $rows rows ($p = $sp + $rows, $sp >= 636)"
else
	t_fail "our tcpdump passes $p tests, stock $sp and our rows $rows (baseline 636)"
fi
if [ "$s" -le "$ss" ]; then
	t_ok "our tcpdump skips no more than stock ($s <= $ss)"
else
	t_fail "our tcpdump skips $s tests, stock $ss"
fi
t_done
