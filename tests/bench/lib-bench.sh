# tests/bench/lib-bench.sh -- what the bench tests share (sourced after
# tests/lib.sh).

# bench_quick EXPERIMENT OUT: bench/run --quick --only EXPERIMENT into
# OUT, with the environment the caller exported, as one check that it
# exits 0; if it does not, the tail of its output and the end of the
# test.
bench_quick() {
	if SLUICE_BUILDDIR=$SLUICE_BUILDDIR bash "$SLUICE_SRCDIR/bench/run" \
	    --quick --only "$1" --out "$2" >"$TMPDIR/run.log" 2>&1; then
		t_ok "bench/run --quick --only $1 exits 0"
	else
		t_fail "bench/run --quick --only $1"
		tail -20 "$TMPDIR/run.log" | sed 's/^/#   /'
		t_done
	fi
}
