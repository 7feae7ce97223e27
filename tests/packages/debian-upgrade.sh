# The Debian packages replace a release's own on a clean system, as a
# user would install them, and go back out again; t-bookworm.sh and
# t-trixie.sh source this with
#	suite	the release (its packages are in $SLUICE_DEB_DIR when it is
#		the host's, in $SLUICE_DEB_DIR/$suite otherwise)
#	lib	its library package, libpcap0.8 or libpcap0.8t64
#	big_codecs	the codecs whose captures of many blocks its tshark
#		reads (bookworm's tshark 4.0 reads only the first zstd or
#		lz4 frame)
#	slice	"slice" where its tcpslice reads compressed captures, empty
#		where it stops on them (trixie's 1.8)
# In a minimal root of the release made by mmdebstrap:
#  1. our four packages install with apt as an upgrade: nothing removed,
#     nothing held back; our symbols file lists Debian's symbols at
#     Debian's minimal versions;
#  2. tcpdump --version names sluice; Debian's programs now load our
#     library and read our compressed captures (zstd, lz4, gzip) exactly
#     as they read the plain capture, and tshark, with its own reader,
#     reads a capture of many blocks, some stored, as the plain one;
#     tcpdump -D lists what stock listed;
#  3. tcpdump's own TESTrun passes against the installed /usr/bin/tcpdump
#     (as Debian's autopkgtest runs it), 636 checks and our printer's;
#  4. a capture as root drops to the tcpdump user before the first
#     savefile is opened, with the writer thread, -C rotation and -z;
#  5. the AppArmor profile parses against the system's abstractions;
#  6. a program built against our libpcap0.8-dev runs with Debian's
#     library after the rollback: apt installs Debian's versions again
#     and the system is stock.
# The root is made once and cached as a tarball (with apt's lists and
# Debian's .debs, so that the test itself runs offline) in
# ${XDG_CACHE_HOME:-~/.cache}/sluice; the test runs in its own mount and
# network namespaces, its capture on their loopback only.

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP needs root (a chroot, namespaces, dpkg)"
	exit 77
fi
need_cmd mmdebstrap unshare chroot zstd
: "${SLUICE_DEB_DIR:?run this through make check-packages}"
debs=$SLUICE_DEB_DIR
[ "$suite" = "${SLUICE_HOST_SUITE:-}" ] || debs=$SLUICE_DEB_DIR/$suite
if ! ls "$debs"/${lib}_*.deb >/dev/null 2>&1; then
	t_fail "make check-packages built the $suite packages in $debs"
	t_done
fi
root=$TMPDIR/root
# Debian's tcpdump and libpcap, and programs that load libpcap.
pkgs="tcpdump $lib libpcap0.8-dev libpcap-dev ngrep tcpflow tcpslice nfdump tcpreplay tshark perl gcc libc6-dev apparmor"
programs="ngrep tcpflow tcpslice nfpcapd tcpreplay dumpcap tcpdump"

if [ -z "${SLUICE_IN_NAMESPACE:-}" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/sluice
	key=$(echo "$suite $pkgs" | sha256sum | cut -c1-12)
	base=$cache/$suite-stock-$key.tar.zst
	if [ ! -s "$base" ]; then
		mkdir -p "$cache"
		echo "# making the $suite root (cached as $base)"
		if ! timeout 900 mmdebstrap --variant=apt --include="$(echo $pkgs | tr ' ' ,)" \
		    --skip=cleanup/apt/lists --skip=cleanup/apt/cache \
		    "$suite" "$base.tmp.tar.zst" >"$TMPDIR/mmdebstrap.log" 2>&1; then
			t_fail "mmdebstrap made a $suite root"
			tail -20 "$TMPDIR/mmdebstrap.log" | sed 's/^/#   /'
			rm -f "$base.tmp.tar.zst"
			t_done
		fi
		mv "$base.tmp.tar.zst" "$base"
	fi
	mkdir -p "$root"
	if ! tar --zstd -xf "$base" -C "$root"; then
		t_fail "unpacking $base"
		t_done
	fi
	SLUICE_IN_NAMESPACE=1 exec unshare --mount --net --fork -- sh "$0"
fi

# From here on: in our own mount and network namespaces.
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"
ip link set lo up

# inroot CMD...: CMD in the root, with a clean environment.
inroot() {
	timeout 600 chroot "$root" /usr/bin/env -i \
	    PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	    DEBIAN_FRONTEND=noninteractive "$@"
}
# loaded_library PROGRAM: "ours" or "Debian's", after the file the
# dynamic linker gives PROGRAM for libpcap.so.0.8 (both are
# libpcap.so.1.10.5 on trixie: ours says sluice in its version string).
loaded_library() {
	f=$(inroot ldd "$1" | awk '$1 == "libpcap.so.0.8" { print $3 }')
	if [ -z "$f" ]; then
		echo "none"
	elif grep -q "(sluice $SLUICE_VERSION)" "$root$(inroot readlink -f "$f")"; then
		echo "ours"
	else
		echo "Debian's"
	fi
}

stock_pcap=$(inroot dpkg-query -W -f='${Version}' $lib)
stock_tcpdump=$(inroot dpkg-query -W -f='${Version}' tcpdump)
echo "# Debian's versions: $lib $stock_pcap, tcpdump $stock_tcpdump"
cp "$root/var/lib/dpkg/info/$lib:$(inroot dpkg --print-architecture).symbols" "$TMPDIR/debian.symbols"

# A capture for the tools to read: generated HTTP traffic.
"$SLUICE_GEN" --type http --count 400 --out "$root/tmp/plain.pcap" >/dev/null
cat >"$root/tmp/prog.c" <<'EOF'
#include <pcap/pcap.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *d;
	int n = 0;
	pcap_t *p = pcap_open_offline(argv[1], errbuf);

	if (argc != 2 || p == NULL)
		return 2;
	while (pcap_next_ex(p, &h, &d) == 1)
		n++;
	printf("%s: %d packets\n", pcap_lib_version(), n);
	return 0;
}
EOF

# tool_outputs SUFFIX FILE: what each Debian program makes of FILE, in
# /tmp/out-SUFFIX.*, with the lines that name the input file left out.
tool_outputs() {
	inroot sh -c "ngrep -q -I $2 2>&1 | grep -v '^input:' >/tmp/out-$1.ngrep;
	    rm -rf /tmp/flow-$1 && mkdir /tmp/flow-$1 && tcpflow -r $2 -o /tmp/flow-$1 >/dev/null 2>&1 &&
	    rm -f /tmp/flow-$1/report.xml;
	    tcprewrite --infile=$2 --outfile=/tmp/out-$1.rewrite >/dev/null 2>&1;
	    tcpslice -w /tmp/out-$1.slice $2 >/dev/null 2>/tmp/err-$1.slice;
	    rm -rf /tmp/nf-$1 && mkdir /tmp/nf-$1 && nfpcapd -r $2 -w /tmp/nf-$1 >/dev/null 2>&1 &&
	    nfdump -R /tmp/nf-$1 -q -o 'fmt:%ts %te %pr %sa %sp %da %dp %flg %pkt %byt' 2>/dev/null |
	    sort >/tmp/out-$1.nfdump;
	    tshark -r $2 2>/dev/null >/tmp/out-$1.tshark"
}
tool_outputs stock /tmp/plain.pcap
inroot tcpdump -D >"$TMPDIR/stock-D" 2>&1
for prog in $programs; do
	t_expect_eq "before the upgrade, $prog loads Debian's libpcap.so.0.8" \
	    "Debian's" "$(loaded_library /usr/bin/$prog)"
done

# 1. The upgrade.
mkdir -p "$root/tmp/debs"
cp "$debs"/${lib}_*.deb "$debs"/libpcap0.8-dev_*.deb \
    "$debs"/libpcap-dev_*.deb "$debs"/tcpdump_*.deb "$root/tmp/debs/"
if inroot sh -c 'apt-get install -y /tmp/debs/*.deb' >"$TMPDIR/install.log" 2>&1; then
	t_ok "apt installs our four packages"
else
	t_fail "apt installs our four packages"
	tail -20 "$TMPDIR/install.log" | sed 's/^/#   /'
	t_done
fi
t_expect_eq "the install upgrades four packages and removes or holds back none" \
    "4 upgraded, 0 newly installed, 0 to remove and 0 not upgraded." \
    "$(grep -E '^[0-9]+ upgraded' "$TMPDIR/install.log")"
ours_pcap=$(inroot dpkg-query -W -f='${Version}' $lib)
ours_tcpdump=$(inroot dpkg-query -W -f='${Version}' tcpdump)
t_check "$lib $ours_pcap sorts above Debian's $stock_pcap" \
    dpkg --compare-versions "$ours_pcap" gt "$stock_pcap"
t_check "tcpdump $ours_tcpdump sorts above Debian's $stock_tcpdump" \
    dpkg --compare-versions "$ours_tcpdump" gt "$stock_tcpdump"
# Debian's symbols, at Debian's minimal versions: our symbols file lists
# them all, and only our additions ask for our package.
grep '^ ' "$TMPDIR/debian.symbols" | LC_ALL=C sort >"$TMPDIR/debian.list"
grep '^ ' "$SLUICE_SRCDIR/packaging/debian/libpcap0.8.symbols" | grep -v '+sluice' |
    sed 's/^ (arch=[^)]*)/ /' | LC_ALL=C sort >"$TMPDIR/ours.list"
t_check "our symbols file lists $lib's $(wc -l <"$TMPDIR/debian.list") symbols at Debian's versions" \
    diff "$TMPDIR/debian.list" "$TMPDIR/ours.list"
t_check "dpkg --audit finds nothing wrong" sh -c "[ -z \"\$(chroot $root dpkg --audit)\" ]"

# 2. Ours is what runs now.
case $(inroot tcpdump --version 2>&1 | tr '\n' ' ') in
*"tcpdump version $SLUICE_TCPDUMP_VERSION (sluice $SLUICE_VERSION)"*"libpcap version $SLUICE_LIBPCAP_VERSION (sluice $SLUICE_VERSION)"*)
	t_ok "/usr/bin/tcpdump --version names sluice and our libpcap" ;;
*)	t_fail "tcpdump --version: $(inroot tcpdump --version 2>&1 | tr '\n' ' ')" ;;
esac
for prog in $programs; do
	t_expect_eq "$prog loads our library as libpcap.so.0.8" \
	    "ours" "$(loaded_library /usr/bin/$prog)"
done
inroot tcpdump -D >"$TMPDIR/ours-D" 2>&1
t_check "tcpdump -D lists the interfaces stock listed (D-Bus included)" \
    diff "$TMPDIR/stock-D" "$TMPDIR/ours-D"
t_check "tcpdump -D lists the D-Bus buses" grep -q dbus-system "$TMPDIR/ours-D"
for cs in zstd:zst lz4:lz4 gzip:gz; do
	c=${cs%:*}
	f=/tmp/c.pcap.${cs#*:}
	if ! inroot tcpdump -r /tmp/plain.pcap -w $f --compress=$c 2>/dev/null; then
		t_fail "tcpdump -w $f --compress=$c"
		continue
	fi
	tool_outputs $c $f
	for t in ngrep rewrite $slice nfdump tshark; do
		t_check "$t reads the $c capture as it read the plain one with Debian's library" \
		    cmp "$root/tmp/out-stock.$t" "$root/tmp/out-$c.$t"
	done
	# tcpslice 1.8 asks fileno() for the descriptor of pcap_file(),
	# only to pass posix_fadvise() a hint, and stops when there is none:
	# a compressed savefile's stream has no descriptor (pcap_file(3PCAP)).
	if [ -z "$slice" ]; then
		t_expect_eq "tcpslice stops on the $c capture, for want of a descriptor" \
		    "tcpslice: fileno() failed: Bad file descriptor" "$(cat "$root/tmp/err-$c.slice")"
	fi
	t_check "tcpflow reassembles the $c capture as it did the plain one with Debian's library" \
	    diff -r "$root/tmp/flow-stock" "$root/tmp/flow-$c"
done
for t in ngrep slice nfdump tshark; do
	t_check "$t's output on the plain capture is not empty" test -s "$root/tmp/out-stock.$t"
done
t_check "tcpflow wrote flows" sh -c "ls $root/tmp/flow-stock | grep -q ."

# tshark reads compressed captures with its own reader, not libpcap: a
# capture of many blocks reads as the plain one.  It holds 40,000 HTTP
# frames around 6,000 of random payload, enough blocks that do not
# compress for the writer to store some without running the codec (as
# tests/compress/t-api.sh checks).
"$SLUICE_GEN" --type http --count 20000 --out "$TMPDIR/http1.pcap" >/dev/null
"$SLUICE_GEN" --type random1518 --count 6000 --out "$TMPDIR/random.pcap" >/dev/null
"$SLUICE_GEN" --type http --count 20000 --seed 2 --out "$TMPDIR/http2.pcap" >/dev/null
{ cat "$TMPDIR/http1.pcap"; tail -c +25 "$TMPDIR/random.pcap"; tail -c +25 "$TMPDIR/http2.pcap"; } \
    >"$root/tmp/big.pcap"
inroot tshark -r /tmp/big.pcap >"$TMPDIR/big.tshark" 2>"$TMPDIR/big.err"
t_expect_eq "tshark reads the plain capture of 46,000 frames" 46000 "$(wc -l <"$TMPDIR/big.tshark")"
for cs in $big_codecs; do
	c=${cs%:*}
	f=/tmp/big.pcap.${cs#*:}
	inroot tcpdump -r /tmp/big.pcap -w $f --compress=$c 2>/dev/null
	inroot tshark -r $f >"$TMPDIR/big-$c.tshark" 2>"$TMPDIR/big-$c.err"
	t_check "$suite's tshark reads the $c capture of many blocks as the plain one" \
	    cmp "$TMPDIR/big.tshark" "$TMPDIR/big-$c.tshark"
	t_check "... and says nothing more about it than about the plain one" \
	    cmp "$TMPDIR/big.err" "$TMPDIR/big-$c.err"
done
frames=$(zstd -lv "$root/tmp/big.pcap.zst" 2>/dev/null | sed -n 's/^# Zstandard Frames: *//p')
case $big_codecs in
*zstd*) t_check "the zstd capture has many frames (${frames:-?})" test "${frames:-0}" -ge 8 ;;
esac

# 3. tcpdump's own suite against the installed binary.
tree=$(ls -d "$debs"/sluice-*/ | head -1)
mkdir -p "$root/tmp/testrun"
cp -R "$tree"_build/src/tcpdump-"$SLUICE_TCPDUMP_VERSION"/tests "$root/tmp/testrun/"
cp "$tree"_build/obj/tcpdump/config.h "$root/tmp/testrun/"
inroot sh -c 'cd /tmp/testrun && TCPDUMP_BIN=/usr/bin/tcpdump srcdir=/tmp/testrun perl tests/TESTrun' \
    >"$TMPDIR/testrun.log" 2>&1
passed=$(sed -n 's/^ *\([0-9]*\) tests passed$/\1/p' "$TMPDIR/testrun.log")
failed=$(sed -n 's/^ *\([0-9]*\) tests failed$/\1/p' "$TMPDIR/testrun.log")
echo "# summary: TESTrun against the installed /usr/bin/tcpdump: ${passed:-?} passed, ${failed:-?} failed"
# Upstream's 636 checks, and the rows our ERSPAN printer adds.
ours=$(grep -c '^erspan-' "$root/tmp/testrun/tests/TESTLIST")
t_expect_eq "TESTrun against /usr/bin/tcpdump passes 636 + $ours checks, fails none" \
    "$((636 + ours)) 0" "${passed:-?} ${failed:-?}"

# 4. Capture as root, written as the tcpdump user.
inroot sh -c 'mkdir -p /tmp/live && chown tcpdump:tcpdump /tmp/live'
# live_capture NAME TCPDUMP-ARGS: capture 4000 of 5000 generated frames
# (about 1.5 MB)
# on loopback into /tmp/live/NAME.
live_capture() {
	inroot sh -c "exec tcpdump -i lo -c 4000 -w /tmp/live/$1 $2" \
	    >"$TMPDIR/live-$1.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q 'listening on' "$TMPDIR/live-$1.log" && break
		sleep 0.1
	done
	"$SLUICE_GEN" --type http --count 5000 --rate 20000 --iface lo >/dev/null 2>&1
	wait $pid
}
live_capture r.pcap "-C 1 -z gzip --writer-ring=16M"
# tcpdump does not wait for its -z children (nor does stock's); gzip
# removes each input once its .gz is complete.  At most 20 s.
for _ in $(seq 1 200); do
	files=$(cd "$root/tmp/live" && ls r.pcap* | tr '\n' ' ')
	[ "$files" != "r.pcap.gz r.pcap1.gz " ] || break
	sleep 0.1
done
t_expect_eq "-C 1 rotated once, and -z gzip compressed each finished file" \
    "r.pcap.gz r.pcap1.gz " "$files"
owners=$(inroot sh -c 'stat -c %U /tmp/live/r.pcap*' | sort -u | tr '\n' ' ')
t_expect_eq "every savefile and its gzip are the tcpdump user's" "tcpdump " "$owners"
total=0
for f in $files; do
	n=$(inroot tcpdump -r "/tmp/live/$f" 2>/dev/null | wc -l)
	total=$((total + n))
done
t_expect_eq "the rotated files hold the 4000 captured packets" 4000 "$total"
live_capture c.pcap.zst "--compress"
t_expect_eq "the compressed capture is the tcpdump user's" tcpdump \
    "$(inroot stat -c %U /tmp/live/c.pcap.zst)"
t_expect_eq "the compressed capture holds 4000 packets" 4000 \
    "$(inroot tcpdump -r /tmp/live/c.pcap.zst 2>/dev/null | wc -l)"

# 5. AppArmor: no kernel here enforces it; the profile must at least
# compile against the system's abstractions and name our files and tools.
profile=/etc/apparmor.d/usr.bin.tcpdump
t_check "the AppArmor profile compiles against the system's abstractions" \
    inroot apparmor_parser -Q -K "$profile"
t_check "the profile allows compressed savefile names" \
    grep -qF '[pP][cC][aA][pP].{zst,lz4,gz} rw,' "$root$profile"
t_check "the profile allows -z zstd" grep -qF '/{usr/,}bin/zstd ixr,' "$root$profile"

# 6. A program built against our -dev, then the rollback.
t_check "a program builds against our libpcap0.8-dev" inroot gcc -o /tmp/prog /tmp/prog.c -lpcap
t_expect_eq "it runs with our library" \
    "libpcap version $SLUICE_LIBPCAP_VERSION (sluice $SLUICE_VERSION) (with TPACKET_V3): 400 packets" \
    "$(inroot /tmp/prog /tmp/c.pcap.zst 2>&1)"
if inroot apt-get install -y --no-download --allow-downgrades "tcpdump=$stock_tcpdump" \
    "$lib=$stock_pcap" "libpcap0.8-dev=$stock_pcap" "libpcap-dev=$stock_pcap" \
    >"$TMPDIR/rollback.log" 2>&1; then
	t_ok "apt installs Debian's versions again"
else
	t_fail "apt installs Debian's versions again"
	tail -20 "$TMPDIR/rollback.log" | sed 's/^/#   /'
fi
t_expect_eq "the rollback downgrades the four and removes nothing" \
    "0 upgraded, 0 newly installed, 4 downgraded, 0 to remove and 0 not upgraded." \
    "$(grep -E '^[0-9]+ upgraded' "$TMPDIR/rollback.log")"
case $(inroot tcpdump --version 2>&1 | tr '\n' ' ') in
*sluice*) t_fail "tcpdump still names sluice after the rollback" ;;
"tcpdump version "*) t_ok "tcpdump is Debian's again" ;;
*) t_fail "tcpdump --version after the rollback: $(inroot tcpdump --version 2>&1)" ;;
esac
for prog in $programs; do
	t_expect_eq "after the rollback, $prog loads Debian's library again" \
	    "Debian's" "$(loaded_library /usr/bin/$prog)"
done
tool_outputs back /tmp/plain.pcap
t_check "ngrep's output on the plain capture is stock's again" \
    cmp "$root/tmp/out-stock.ngrep" "$root/tmp/out-back.ngrep"
t_expect_eq "the program built against our -dev runs with Debian's library" \
    "libpcap version ${stock_pcap%-*} (with TPACKET_V3): 400 packets" \
    "$(inroot /tmp/prog /tmp/plain.pcap 2>&1)"

t_done
