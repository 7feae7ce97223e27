#!/bin/sh
# A D-Bus capture releases every message it captured (libpcap 1.10.6's
# fix, backported): tests/regress/dbus-capture.c captures 20 messages
# from a private session bus that this test starts and stops, under
# valgrind, and no memory may be lost through dbus_read().  The
# sanitizer build skips it: valgrind cannot run there, and
# LeakSanitizer also reports what libdbus itself keeps until exit.
. "$SLUICE_SRCDIR/tests/lib.sh"
case "$CFLAGS" in
*-fsanitize=*)
	echo "1..0 # SKIP needs valgrind, which cannot run a sanitizer build; the plain build runs this"
	exit 77 ;;
esac
need_cmd valgrind dbus-daemon dbus-send timeout

prog=$TMPDIR/dbus-capture
if ! build_c "$prog" "$SLUICE_SRCDIR/tests/regress/dbus-capture.c"; then
	t_fail "build dbus-capture"
	t_done
fi
if ! dbus-daemon --session --fork --print-address=1 --print-pid=1 \
    >"$TMPDIR/bus" 2>"$TMPDIR/bus.err"; then
	t_fail "start a private session bus: $(head -2 "$TMPDIR/bus.err")"
	t_done
fi
DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p "$TMPDIR/bus")
bus_pid=$(sed -n 2p "$TMPDIR/bus")
export DBUS_SESSION_BUS_ADDRESS
trap 'kill "$bus_pid" 2>/dev/null' EXIT

timeout 60 valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
    --log-file="$TMPDIR/vg" "$prog" 20 >"$TMPDIR/out" 2>"$TMPDIR/err" &
cap=$!
# Wait until it listens (valgrind starts slowly), at most 30 s.
i=0
while [ $i -lt 300 ] && ! grep -q '^ready$' "$TMPDIR/out"; do
	sleep 0.1
	i=$((i + 1))
done
# Then signals until it has its 20 messages, at most 100 of them.
i=0
while [ $i -lt 100 ] && kill -0 $cap 2>/dev/null; do
	dbus-send --session --type=signal / org.example.Sluice.Ping \
	    string:ping >/dev/null 2>&1
	sleep 0.05
	i=$((i + 1))
done
wait $cap
rc=$?
t_check "captured 20 messages and closed (exit $rc: $(tail -1 "$TMPDIR/out") $(head -1 "$TMPDIR/err"))" \
    [ "$rc" = 0 ]
# A loss record is a block of lines from "definitely lost" to a blank one.
lost=$(awk '/definitely lost in loss record/ { rec = 1; next }
    rec && /dbus_read/ { n++; rec = 0 }
    /^==[0-9]*== *$/ { rec = 0 }
    END { print n + 0 }' "$TMPDIR/vg")
t_expect_eq "no memory lost through dbus_read()" 0 "$lost"
t_done
