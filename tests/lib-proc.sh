# tests/lib-proc.sh -- process helpers shared by the tests (through
# tests/live/netns.sh) and by bench/lib.sh: whether a process still runs,
# waiting a bounded time for it to end, and stopping it.  Shell builtins
# where a polling loop calls them.  Every wait is bounded in count.

# The polling interval (s): short, so that a caller waits hardly longer
# than the condition it polls (a process exits within a few ms), and how
# many of them make the tenths of a second that callers count in.
PROC_POLL=0.02
PROC_POLLS_PER_TENTH=5

# proc_alive PID: true while PID runs.  "kill -0" is not enough: it also
# succeeds on an exited child the shell has not reaped yet (a zombie).
proc_alive() {
	_pa_st=
	{ read -r _pa_st <"/proc/$1/stat"; } 2>/dev/null || return 1
	_pa_st=${_pa_st##*) }
	_pa_st=${_pa_st%% *}
	[ -n "$_pa_st" ] && [ "$_pa_st" != Z ]
}

# proc_wait_exit PID TENTHS: wait up to TENTHS * 0.1 s for PID to end;
# true if it did.
proc_wait_exit() {
	_pw_i=0
	while [ "$_pw_i" -lt $(($2 * PROC_POLLS_PER_TENTH)) ] &&
	    proc_alive "$1"; do
		sleep "$PROC_POLL"
		_pw_i=$((_pw_i + 1))
	done
	! proc_alive "$1"
}

# proc_stop PID SIGNAL TENTHS: send SIGNAL to the child PID, wait up to
# TENTHS * 0.1 s, then SIGKILL it; reap it.  PROC_STATUS is its exit
# status, 255 if it had to be killed.
proc_stop() {
	kill "-$2" "$1" 2>/dev/null
	if proc_wait_exit "$1" "$3"; then
		wait "$1"
		PROC_STATUS=$?
	else
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		PROC_STATUS=255
	fi
}
