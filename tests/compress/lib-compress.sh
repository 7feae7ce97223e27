# tests/compress/lib-compress.sh -- shared by the compressed-savefile tests.
# Sourced after tests/lib.sh.  Sets:
#	PCAPS	directory of tcpdump's own test captures
#	API	the sfc-api test program (built here)
#	CODECS	the codecs this libpcap has (lzo only when built --with-lzo)
# and defines expect_error, decompress and compress_with_tool.

PCAPS=$SLUICE_BUILDDIR/src/tcpdump-4.99.6/tests
if [ ! -f "$PCAPS/afs.pcap" ]; then
	echo "1..0 # SKIP tcpdump's test captures not found under $PCAPS"
	exit 77
fi

API=$TMPDIR/sfc-api
if ! build_c "$API" "$SLUICE_SRCDIR/tests/compress/sfc-api.c" \
    >"$TMPDIR/build.log" 2>&1; then
	t_fail "sfc-api.c builds against our libpcap"
	sed 's/^/#   /' "$TMPDIR/build.log" | head -20
	t_done
fi

CODECS=
for _c in gzip lz4 zstd lzo; do
	if "$TCPDUMP" -r "$PCAPS/print-flags.pcap" -w "$TMPDIR/probe" \
	    --compress=$_c >/dev/null 2>&1; then
		CODECS="$CODECS $_c"
	fi
done
rm -f "$TMPDIR/probe"

# decompress CODEC FILE: the standard tool's idea of FILE's contents.
decompress() {
	case $1 in
	gzip)	gzip -dc <"$2" ;;
	lz4)	lz4 -dc <"$2" ;;
	zstd)	zstd -dcq <"$2" ;;
	lzo)	lzop -dc <"$2" ;;
	none)	cat "$2" ;;
	esac
}

# compress_with_tool CODEC: compress stdin to stdout with the standard tool.
compress_with_tool() {
	case $1 in
	gzip)	gzip -c ;;
	lz4)	lz4 -qc ;;
	zstd)	zstd -qc ;;
	lzo)	lzop -c ;;
	esac
}

# expect_error DESC TEXT TCPDUMP-ARGS...: tcpdump must fail (non-zero
# exit) with TEXT in what it prints; a * in TEXT matches anything.
expect_error() {
	_ee_desc=$1
	_ee_text=$2
	shift 2
	_ee_err=$("$TCPDUMP" "$@" 2>&1 </dev/null)
	_ee_rc=$?
	# shellcheck disable=SC2254 # TEXT is a pattern on purpose
	case "$_ee_err" in
	*$_ee_text*)
		if [ $_ee_rc -ne 0 ]; then
			t_ok "$_ee_desc: exit $_ee_rc: $(echo "$_ee_err" | tail -1)"
			return 0
		fi ;;
	esac
	t_fail "$_ee_desc: exit $_ee_rc: $_ee_err"
	return 1
}
