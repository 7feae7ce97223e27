#!/bin/sh
#
# Compressed savefiles round-trip byte for byte: for every codec, several
# block sizes and a set of tcpdump's own test captures (pcap and pcapng,
# large and small, empty), what the standard tool decompresses and what
# tcpdump -r reads back are exactly what plain "tcpdump -r X -w" writes.
# Written uncompressed, pcap_dump_ftell64() is where the stream handed
# over ends after every packet, with a writer thread too; compressed,
# without one, it is the bytes on disk.

. "$SLUICE_SRCDIR/tests/lib.sh"
need_cmd gzip lz4 zstd cmp
. "$SLUICE_SRCDIR/tests/compress/lib-compress.sh"

case $CODECS in
*gzip*lz4*zstd*) t_ok "libpcap has gzip, lz4 and zstd:$CODECS" ;;
*) t_fail "libpcap lacks a BSD-licensed codec, it has:$CODECS" ;;
esac
case $CODECS in
*lzo*) need_cmd lzop ;;
*) t_skip "lzo round trips" "libpcap was built without --with-lzo" ;;
esac

files="afs.pcap huge-tipc-messages.pcap of13_ericsson.pcapng print-flags.pcap empty.pcap"
for f in $files; do
	in=$PCAPS/$f
	plain=$TMPDIR/plain.pcap
	if ! "$TCPDUMP" -r "$in" -w "$plain" 2>/dev/null; then
		t_fail "$f: plain tcpdump -r -w"
		continue
	fi
	for c in $CODECS none; do
		out=$TMPDIR/out.$c
		# Through tcpdump --compress, default block size.
		if "$TCPDUMP" -r "$in" -w "$out" --compress=$c 2>/dev/null; then
			if decompress $c "$out" | cmp -s - "$plain"; then
				t_ok "$f --compress=$c: the $c tool gives the plain savefile"
			else
				t_fail "$f --compress=$c: the $c tool gives something else"
			fi
			rm -f "$TMPDIR/back"
			"$TCPDUMP" -r "$out" -w "$TMPDIR/back" 2>/dev/null
			t_check "$f --compress=$c: tcpdump -r reads it back identically" \
			    cmp "$TMPDIR/back" "$plain"
		else
			t_fail "$f: tcpdump --compress=$c fails"
		fi
		# Through the API, at several block sizes (a block can be
		# smaller than one record: afs.pcap has 1.5 KB packets
		# and huge-tipc-messages.pcap 64 KB ones).
		for bs in 4096 65536 1048576; do
			if ! "$API" write "$in" "$out" $c $bs >/dev/null 2>"$TMPDIR/err"; then
				t_fail "$f $c block $bs: sfc-api write: $(head -3 "$TMPDIR/err")"
				continue
			fi
			if decompress $c "$out" | cmp -s - "$plain" &&
			    "$TCPDUMP" -r "$out" -w "$TMPDIR/back" 2>/dev/null &&
			    cmp -s "$TMPDIR/back" "$plain"; then
				t_ok "$f $c block $bs: tool and tcpdump -r give the plain savefile"
			else
				t_fail "$f $c block $bs: round trip differs"
			fi
		done
	done
	# Uncompressed through a writer thread: pcap_dump_ftell64() is
	# where the stream handed over ends after every packet, however
	# far behind the thread is (sfc-api checks it), as tcpdump -C needs.
	if "$API" write "$in" "$TMPDIR/out.ring" none 65536 1048576 \
	    >/dev/null 2>"$TMPDIR/err"; then
		t_check "$f none, writer thread: the plain savefile" \
		    cmp "$TMPDIR/out.ring" "$plain"
	else
		t_fail "$f none, writer thread: sfc-api write: $(head -3 "$TMPDIR/err")"
	fi
	# The same through a FILE * that appends to what the file holds:
	# the position counts from where the dumper began.
	printf 'fifteen bytes!\n' >"$TMPDIR/out.app"
	if "$API" append "$in" "$TMPDIR/out.app" none 65536 1048576 \
	    >/dev/null 2>"$TMPDIR/err"; then
		t_check "$f none, writer thread, appended: what the file held, then the plain savefile" \
		    sh -c "[ \"\$(head -c 15 '$TMPDIR/out.app')\" = 'fifteen bytes!' ] &&
			tail -c +16 '$TMPDIR/out.app' | cmp -s - '$plain'"
	else
		t_fail "$f none, writer thread, appended: sfc-api append: $(head -3 "$TMPDIR/err")"
	fi
done

# Levels, and the FILE * opener.
in=$PCAPS/afs.pcap
"$TCPDUMP" -r "$in" -w "$TMPDIR/plain.pcap" 2>/dev/null
# zstd below 1 is its fast strategy, 0 libzstd's default level.
for spec in gzip:9 zstd:19 lz4:12 zstd:1 gzip:1 zstd:0 zstd:-1 zstd:-5 \
    zstd:-100; do
	case " $CODECS " in *" ${spec%%:*} "*) ;; *) continue ;; esac
	"$TCPDUMP" -r "$in" -w "$TMPDIR/out" --compress=$spec 2>/dev/null
	t_check "--compress=$spec round-trips" sh -c \
	    "'$TCPDUMP' -r '$TMPDIR/out' -w '$TMPDIR/back' 2>/dev/null && cmp '$TMPDIR/back' '$TMPDIR/plain.pcap'"
done
for c in $CODECS; do
	"$API" fwrite "$in" "$TMPDIR/out" $c >/dev/null 2>&1
	t_check "$c through pcap_dump_fopen_with_options() round-trips" sh -c \
	    "'$TCPDUMP' -r '$TMPDIR/out' -w '$TMPDIR/back' 2>/dev/null && cmp '$TMPDIR/back' '$TMPDIR/plain.pcap'"
done

# --compress alone picks the library's default codec, a real one.
"$TCPDUMP" -r "$in" -w "$TMPDIR/def" --compress 2>/dev/null
magic=$(od -An -tx1 -N4 "$TMPDIR/def" | tr -d ' ')
case $magic in
04224d18|28b52ffd|1f8b08*) t_ok "--compress alone writes a compressed file ($magic)" ;;
*) t_fail "--compress alone wrote magic $magic" ;;
esac
t_check "--compress alone round-trips" sh -c \
    "'$TCPDUMP' -r '$TMPDIR/def' -w '$TMPDIR/back' 2>/dev/null && cmp '$TMPDIR/back' '$TMPDIR/plain.pcap'"

t_done
