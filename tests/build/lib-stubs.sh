# tests/build/lib-stubs.sh -- shared by the tests of a libpcap built
# where part of the dumper cannot be (t-no-atomics.sh,
# t-no-fopencookie.sh).  Sourced after tests/lib.sh.
#
# stub_build CACHE-VARIABLE=VALUE [VAR=VALUE...]: configure and build
# libpcap.a in $TMPDIR/obj with that configure result forced (and the
# other variables given to configure); sets $obj, $src,
# $members (the archive's members), $wsyms (nm's lines for
# sf-compress-write.o) and $libs (what it links with), or fails the
# test and ends it.
# stub_link OUTPUT: link tests/build/no-atomics.c, which uses the whole
# dumper API, against it as OUTPUT, or fail the test and end it.
# reader_syms: set $rsyms to the symbols that the reader
# (sf-compress-read.o, built with or without its decompressing stream)
# defines and uses, as nm prints them, or fail the test and end it.

src=$SLUICE_BUILDDIR/src/libpcap-$SLUICE_LIBPCAP_VERSION
obj=$TMPDIR/obj

stub_build() {
	mkdir "$obj"
	if ! (cd "$obj" && "$src/configure" CC="$CC" CFLAGS="-O1" "$@" \
	    >configure.log 2>&1); then
		t_fail "configure with $1: $(tail -3 "$obj/configure.log")"
		t_done
	fi
	if ! make -C "$obj" -s -j"$(nproc)" libpcap.a >"$obj/make.log" 2>&1; then
		t_fail "libpcap.a builds: $(tail -3 "$obj/make.log")"
		t_done
	fi
	members=$(ar t "$obj/libpcap.a")
	# nm's lines for sf-compress-write.o, which holds the dumper or
	# its stubs, whatever was found.
	wsyms=$(nm "$obj/libpcap.a" 2>/dev/null |
	    sed -n '/^sf-compress-write\.o:$/,/^$/p')
	# The libraries libpcap was configured to use (D-Bus, where its
	# -dev package is installed) come with the static archive.
	libs=$(sed -n 's/^LIBS = //p' "$obj/Makefile")
}

reader_syms() {
	if ! ar p "$obj/libpcap.a" sf-compress-read.o >"$TMPDIR/read.o" ||
	    ! rsyms=$(nm "$TMPDIR/read.o"); then
		t_fail "libpcap.a holds the reader, sf-compress-read.o"
		t_done
	fi
}

stub_link() {
	# shellcheck disable=SC2086
	if ! $CC -I"$src" -o "$1" "$SLUICE_SRCDIR/tests/build/no-atomics.c" \
	    "$obj/libpcap.a" $libs -lpthread >"$TMPDIR/cc.log" 2>&1; then
		t_fail "a program using the whole API links: $(head -5 "$TMPDIR/cc.log")"
		t_done
	fi
}
