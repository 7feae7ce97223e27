# tests/lib.sh -- helpers sourced by every sluice test script.
#
# A test script prints one line per check, in TAP form:
#	ok 3 - what was checked
#	not ok 4 - what was checked: why it failed
#	ok 5 - what # SKIP why it could not run here
# and exits 0 when all its checks passed, 77 when it could not run at
# all, anything else on failure.  tests/run counts the lines.
#
# The harness (tests/run) provides, in the environment:
#	SLUICE_SRCDIR	the source tree (absolute)
#	SLUICE_BUILDDIR	the build tree (absolute)
#	TCPDUMP		our tcpdump binary
#	PCAP_CFLAGS	compiler flags for our staged libpcap headers
#	PCAP_LIBS	linker flags for our staged libpcap
#	LD_LIBRARY_PATH	starts with our staged libdir
#	CC, CFLAGS	the compiler and flags (sanitizer flags included when
#			configured with --enable-sanitizers)
#	TMPDIR		a scratch directory private to this script, removed
#			afterwards
#	SLUICE_GEN, SLUICE_SEQCHECK, SLUICE_SLOWSINK
#			the traffic tools of tests/gen, built once by make

t_count=0
t_failed=0

t_ok() {
	t_count=$((t_count + 1))
	echo "ok $t_count - $*"
}

t_fail() {
	t_count=$((t_count + 1))
	t_failed=$((t_failed + 1))
	echo "not ok $t_count - $*"
}

t_skip() {
	t_count=$((t_count + 1))
	echo "ok $t_count - $1 # SKIP $2"
}

# t_check DESCRIPTION COMMAND [ARG...]: one check that passes when the
# command exits 0.  The command's output is shown only on failure.
t_check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		t_ok "$_desc"
	else
		t_fail "$_desc"
		printf '%s\n' "$_out" | sed 's/^/#   /' | head -40
	fi
}

# t_expect_eq DESCRIPTION EXPECTED ACTUAL
t_expect_eq() {
	if [ "$2" = "$3" ]; then
		t_ok "$1"
	else
		t_fail "$1: expected '$2', got '$3'"
	fi
}

# t_done: the script's exit status.
t_done() {
	if [ "$t_failed" -ne 0 ]; then
		exit 1
	fi
	exit 0
}

# patch_queue_copy DIR: a scratch copy in DIR of what the patch tools
# read and write (configure.ac, build-aux, patches and the new files),
# with the build's verified tarballs for them to unpack, so that they
# fetch nothing and leave the repository alone.
patch_queue_copy() {
	mkdir -p "$1" "$TMPDIR/tarballs"
	cp -R "$SLUICE_SRCDIR/configure.ac" "$SLUICE_SRCDIR/build-aux" \
	    "$SLUICE_SRCDIR/patches" "$SLUICE_SRCDIR/libpcap" \
	    "$SLUICE_SRCDIR/tcpdump" "$1/"
	for _comp in libpcap tcpdump; do
		ln -sf "$(cat "$SLUICE_BUILDDIR/src/.$_comp.tarball")" "$TMPDIR/tarballs/"
	done
	SLUICE_TARBALL_DIR=$TMPDIR/tarballs
	SLUICE_TARBALL_CACHE=$TMPDIR/cache
	export SLUICE_TARBALL_DIR SLUICE_TARBALL_CACHE
}

# t_relay OUTPUT [PREFIX]: the "ok N - ..." and "not ok N - ..." lines
# that a unit test program wrote to OUTPUT, as checks of this script,
# their descriptions after PREFIX if given.
t_relay() {
	grep -E '^(not )?ok' "$1" >"$1.lines"
	while read -r _line; do
		case $_line in
		"ok "*) t_ok "${2:-}${_line#ok * - }" ;;
		*) t_fail "${2:-}${_line#not ok * - }" ;;
		esac
	done <"$1.lines"
}

# build_c OUTPUT SOURCE... [-lfoo...]: compile a test program against our
# staged libpcap; extra arguments are passed to the compiler.
build_c() {
	_outp=$1
	shift
	# shellcheck disable=SC2086
	$CC $CFLAGS $PCAP_CFLAGS -o "$_outp" "$@" $PCAP_LIBS
}

# t_program NAME SOURCE: build SOURCE, a program that prints TAP-like
# lines (tests/lib-tap.h), as $TMPDIR/NAME against our staged libpcap,
# run it and relay its lines, then check that it exited 0 with no
# sanitizer report.  Its output stays in $TMPDIR/NAME.out.
t_program() {
	_tp=$TMPDIR/$1
	if ! build_c "$_tp" "$2"; then
		t_fail "build $1"
		return 1
	fi
	"$_tp" >"$_tp.out" 2>&1
	_tprc=$?
	t_relay "$_tp.out"
	t_check "$1 exits 0 with no sanitizer report (exit $_tprc)" sh -c \
	    "[ $_tprc = 0 ] && ! grep -q 'Sanitizer\|runtime error' '$_tp.out'"
}

# with_private_etc DIR CMD...: run CMD with the files of DIR in place of
# those of /etc, through an overlay on /etc in a mount namespace of its
# own, so that the system's /etc is never written.  Needs root.
with_private_etc() {
	_pe=$TMPDIR/private-etc.$$
	rm -rf "$_pe" && mkdir -p "$_pe/up" "$_pe/work" || return 1
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m sh -c 'mount --make-rprivate / &&
	    mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1/up,workdir=$1/work" /etc &&
	    cp "$2"/* /etc/ && shift 2 && exec "$@"' sh "$_pe" "$@"
}

# patch_subjects FILE...: each git format-patch file's subject, the
# "[PATCH ...]" prefix cut and folded header lines joined.
patch_subjects() {
	for _f in "$@"; do
		awk '/^Subject: / { s = $0; getline; while ($0 ~ /^[ \t]/) { s = s $0; getline }
		    sub(/^Subject: \[PATCH[^]]*\] /, "", s); print s; exit }' "$_f"
	done
}

# preload_shim NAME: build tests/faults/NAME.c, an LD_PRELOAD shim, as
# $TMPDIR/NAME.so and set shim to it, or fail the script.  Not with the
# build's sanitizer flags: a preloaded library comes before the
# sanitizer runtime, which ASan allows only when told to (ASAN_OPTIONS,
# exported).
preload_shim() {
	shim=$TMPDIR/$1.so
	if ! $CC -shared -fPIC -O1 -o "$shim" \
	    "$SLUICE_SRCDIR/tests/faults/$1.c" -ldl; then
		t_fail "build the $1 shim"
		t_done
	fi
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	export ASAN_OPTIONS
}

# direct_io_works DIR: DIR's file system writes O_DIRECT data to its
# device before write() returns, which libpcap's compressed savefiles
# rely on so that a kill cannot cut a block: it takes an O_DIRECT write,
# and it is not tmpfs (which takes them since Linux 6.6, into memory).
direct_io_works() {
	[ "$(stat -f -c %T "$1")" != tmpfs ] || return 1
	dd if=/dev/zero of="$1/direct-probe" bs=4096 count=1 oflag=direct \
	    2>/dev/null
	_diw=$?
	rm -f "$1/direct-probe"
	return $_diw
}

# need_root / need_cmd: skip the whole script when something is missing.
need_cmd() {
	for _c in "$@"; do
		if ! command -v "$_c" >/dev/null 2>&1; then
			echo "1..0 # SKIP $_c is not installed"
			exit 77
		fi
	done
}

need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "1..0 # SKIP needs root (network namespaces)"
		exit 77
	fi
}

# build_traffic_tools: set GEN, CHK and SINK to the traffic generator,
# the capture checker and the slow sink of tests/gen, which make builds
# once (test-tools) and the harness names in SLUICE_GEN, SLUICE_SEQCHECK
# and SLUICE_SLOWSINK; a missing one fails the script.
build_traffic_tools() {
	GEN=$SLUICE_GEN
	CHK=$SLUICE_SEQCHECK
	SINK=$SLUICE_SLOWSINK
	for _t in "$GEN" "$CHK" "$SINK"; do
		if [ -z "$_t" ] || [ ! -x "$_t" ]; then
			t_fail "the traffic tools (make test-tools): '$_t' is missing"
			t_done
		fi
	done
}

# frames_in FILE...: the frames the files hold together, as $CHK (from
# build_traffic_tools) counts them; a file it cannot read counts 0.
frames_in() {
	_fi_total=0
	for _fi_f in "$@"; do
		_fi_n=$("$CHK" "$_fi_f" 2>/dev/null | sed -n "s/^frames: //p")
		_fi_total=$((_fi_total + ${_fi_n:-0}))
	done
	echo "$_fi_total"
}
