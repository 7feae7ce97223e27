# lib-fuzz.sh -- the fuzz targets and how each is built; sourced by
# t-replay.sh (make check) and build-aux/sluice-fuzz (make fuzz).
#
# FUZZ_TARGETS: each target's name; its source is tests/fuzz/fuzz-NAME.c,
# its corpus tests/fuzz/corpus/NAME/ and its saved crash reproducers,
# if any, tests/fuzz/reproducers/NAME/.
FUZZ_TARGETS="read compress-read erspan filter dump-options print"

# fuzz_sources SRCDIR NAME BUILDDIR: the sources and libraries of a
# target, beside the driver (libFuzzer's or fuzz-replay.c) and libpcap.
# The printer's target links the libnetdissect.a of the tcpdump built in
# BUILDDIR, with the libraries that tcpdump links.
fuzz_sources() {
	case $2 in
	print)
		_mk=$3/obj/tcpdump/Makefile
		echo "-I$3/obj/tcpdump -I$(sed -n 's/^srcdir = //p' "$_mk")" \
		    "$1/tests/fuzz/fuzz-print.c $3/obj/tcpdump/libnetdissect.a" \
		    "$(sed -n 's/^LIBS = //p' "$_mk")" ;;
	compress-read)
		echo "$1/tests/fuzz/fuzz-compress-read.c -lzstd -llz4 -lz" ;;
	erspan)
		echo "-I$1/tests/erspan/standalone -I$1/libpcap $1/tests/fuzz/fuzz-erspan.c $1/libpcap/pcap-erspan.c" ;;
	*)
		echo "$1/tests/fuzz/fuzz-$2.c" ;;
	esac
}
