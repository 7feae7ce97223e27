#!/bin/sh
#
# bench/lib.sh's search for the maximum lossless rate (maxload_search,
# ml_point), with a made-up run function whose loss is known at every
# rate: which rates it measures, in which order, and the bracket it
# reports.  The sustained experiment relies on ML_SWEEP_STOP to end its
# sweep at the first lossy rate, where every further rate would be a
# long run that can only lose.  Needs no root and measures nothing.

. "$SLUICE_SRCDIR/tests/lib.sh"

need_cmd bash awk

# search ENV...: runs maxload_search in bash with lib.sh, the ENV
# assignments given and a run function "fake" that is lossless up to
# LIMIT frames/s, loses 5% above it, breaks ("na") at the rates in
# BROKEN and, at the rates in FLAKY, loses in 1 of every 3 runs.  Prints
# the rates measured, one line, then "LO HI VALID".
search() {
	env BENCH_DIR="$SLUICE_SRCDIR/bench" CALLS="$TMPDIR/calls" "$@" \
	    bash -c '
		. "$BENCH_DIR/lib.sh" || exit 1
		: >"$CALLS"
		fake() {
			echo "$1" >>"$CALLS"
			case " ${BROKEN:-} " in *" $1 "*) echo na; return ;; esac
			case " ${FLAKY:-} " in
			*" $1 "*)
				[ $(($(grep -c "^$1\$" "$CALLS") % 3)) = 1 ] &&
				    { echo 2.5; return; } ;;
			esac
			[ "$1" -le "$LIMIT" ] && echo 0 || echo 5
		}
		maxload_search fake "$RATES" "$STEPS"
		echo $(cat "$CALLS")
		echo "$ML_LO $ML_HI $ML_VALID"
	'
}

out=$(search LIMIT=300000 RATES="100000 200000 400000 800000" STEPS=2 \
    ML_SWEEP_STOP=1)
t_expect_eq "ML_SWEEP_STOP: the sweep ends at its first lossy rate, then bisects geometrically" \
    "100000 200000 400000 282000 335000" "$(echo "$out" | sed -n 1p)"
t_expect_eq "ML_SWEEP_STOP: the bracket is the highest lossless and lowest lossy rate" \
    "282000 335000 3" "$(echo "$out" | sed -n 2p)"

out=$(search LIMIT=300000 RATES="100000 200000 400000 800000" STEPS=2)
t_expect_eq "without it, every rate of the sweep is measured" \
    "100000 200000 400000 800000 282000 335000" "$(echo "$out" | sed -n 1p)"
t_expect_eq "without it, the same bracket" \
    "282000 335000 4" "$(echo "$out" | sed -n 2p)"

out=$(search LIMIT=900000 RATES="100000 200000 400000" STEPS=3 \
    ML_SWEEP_STOP=1)
t_expect_eq "lossless at every rate: no bisection, no upper bound" \
    "100000 200000 400000 | 400000 na 3" \
    "$(echo "$out" | sed -n 1p) | $(echo "$out" | sed -n 2p)"

out=$(search LIMIT=50000 RATES="100000 200000" STEPS=1 ML_SWEEP_STOP=1)
t_expect_eq "lossy at the first rate: a quarter of it is tried" \
    "100000 25000 | 25000 100000 1" \
    "$(echo "$out" | sed -n 1p) | $(echo "$out" | sed -n 2p)"

out=$(search LIMIT=300000 RATES="100000 200000 400000" STEPS=0 \
    BROKEN=200000 ML_SWEEP_STOP=1)
t_expect_eq "a rate whose run broke neither counts nor ends the sweep" \
    "100000 200000 400000 | 100000 400000 2" \
    "$(echo "$out" | sed -n 1p) | $(echo "$out" | sed -n 2p)"

out=$(search LIMIT=300000 RATES="100000 200000 400000" STEPS=0 \
    FLAKY=200000 ML_REPS=3 ML_SWEEP_STOP=1)
t_expect_eq "ML_REPS=3: each rate 3 times, lossless when the median loss is 0" \
    "100000 100000 100000 200000 200000 200000 400000 400000 400000 | 200000 400000 3" \
    "$(echo "$out" | sed -n 1p) | $(echo "$out" | sed -n 2p)"

t_done
