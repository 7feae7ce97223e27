#!/bin/sh
#
# The Debian packages replace bookworm's on a clean system, as a user
# would install them, and go back out again.  In a minimal bookworm root
# made by mmdebstrap with Debian's tcpdump, libpcap0.8, libpcap0.8-dev,
# libpcap-dev and programs that load libpcap (ngrep, tcpflow, tcpreplay,
# tshark/dumpcap):
#  1. our four packages install with apt as an upgrade: nothing removed,
#     nothing held back;
#  2. tcpdump --version names sluice; Debian's programs now load our
#     library and read our compressed captures (zstd, lz4, gzip) exactly
#     as they read the plain capture; tcpdump -D lists what stock listed;
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

. "$SLUICE_SRCDIR/tests/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP needs root (a chroot, namespaces, dpkg)"
	exit 77
fi
need_cmd mmdebstrap unshare chroot zstd
: "${SLUICE_DEB_DIR:?run this through make check-packages}"

pkgs="tcpdump libpcap0.8 libpcap0.8-dev libpcap-dev ngrep tcpflow tcpreplay tshark perl gcc libc6-dev apparmor"
root=$TMPDIR/root

if [ -z "${SLUICE_IN_NAMESPACE:-}" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/sluice
	key=$(echo "bookworm $pkgs" | sha256sum | cut -c1-12)
	base=$cache/bookworm-stock-$key.tar.zst
	if [ ! -s "$base" ]; then
		mkdir -p "$cache"
		echo "# making the bookworm root (cached as $base)"
		if ! timeout 900 mmdebstrap --variant=apt --include="$(echo $pkgs | tr ' ' ,)" \
		    --skip=cleanup/apt/lists --skip=cleanup/apt/cache \
		    bookworm "$base.tmp.tar.zst" >"$TMPDIR/mmdebstrap.log" 2>&1; then
			t_fail "mmdebstrap made a bookworm root"
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
# libfile PROGRAM: the file the dynamic linker gives PROGRAM for
# libpcap.so.0.8.
libfile() {
	f=$(inroot ldd "$1" | awk '$1 == "libpcap.so.0.8" { print $3 }')
	[ -n "$f" ] && inroot readlink -f "$f"
}

multiarch=$(inroot gcc -print-multiarch)
stock_pcap=$(inroot dpkg-query -W -f='${Version}' libpcap0.8)
stock_tcpdump=$(inroot dpkg-query -W -f='${Version}' tcpdump)
echo "# Debian's versions: libpcap0.8 $stock_pcap, tcpdump $stock_tcpdump"

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
	    tshark -r $2 2>/dev/null >/tmp/out-$1.tshark"
}
tool_outputs stock /tmp/plain.pcap
inroot tcpdump -D >"$TMPDIR/stock-D" 2>&1

# 1. The upgrade.
mkdir -p "$root/tmp/debs"
cp "$SLUICE_DEB_DIR"/libpcap0.8_*.deb "$SLUICE_DEB_DIR"/libpcap0.8-dev_*.deb \
    "$SLUICE_DEB_DIR"/libpcap-dev_*.deb "$SLUICE_DEB_DIR"/tcpdump_*.deb "$root/tmp/debs/"
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
ours_pcap=$(inroot dpkg-query -W -f='${Version}' libpcap0.8)
t_check "libpcap0.8 $ours_pcap sorts above Debian's $stock_pcap" \
    dpkg --compare-versions "$ours_pcap" gt "$stock_pcap"
t_check "dpkg --audit finds nothing wrong" sh -c "[ -z \"\$(chroot $root dpkg --audit)\" ]"

# 2. Ours is what runs now.
case $(inroot tcpdump --version 2>&1 | tr '\n' ' ') in
*"tcpdump version $SLUICE_TCPDUMP_VERSION (sluice $SLUICE_VERSION)"*"libpcap version $SLUICE_LIBPCAP_VERSION (sluice $SLUICE_VERSION)"*)
	t_ok "/usr/bin/tcpdump --version names sluice and our libpcap" ;;
*)	t_fail "tcpdump --version: $(inroot tcpdump --version 2>&1 | tr '\n' ' ')" ;;
esac
for prog in /usr/bin/ngrep /usr/bin/tcpflow /usr/bin/tcpreplay /usr/bin/dumpcap; do
	t_expect_eq "$prog loads our library as libpcap.so.0.8" \
	    "/usr/lib/$multiarch/libpcap.so.$SLUICE_LIBPCAP_VERSION" "$(libfile $prog)"
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
	for t in ngrep rewrite tshark; do
		t_check "$t reads the $c capture as it read the plain one with Debian's library" \
		    cmp "$root/tmp/out-stock.$t" "$root/tmp/out-$c.$t"
	done
	t_check "tcpflow reassembles the $c capture as it did the plain one with Debian's library" \
	    diff -r "$root/tmp/flow-stock" "$root/tmp/flow-$c"
done
t_check "ngrep's output is not empty" test -s "$root/tmp/out-stock.ngrep"
t_check "tcpflow wrote flows" sh -c "ls $root/tmp/flow-stock | grep -q ."

# 3. tcpdump's own suite against the installed binary.
tree=$(ls -d "$SLUICE_DEB_DIR"/sluice-*/ | head -1)
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
    "libpcap0.8=$stock_pcap" "libpcap0.8-dev=$stock_pcap" "libpcap-dev=$stock_pcap" \
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
t_expect_eq "ngrep loads Debian's library again" \
    "/usr/lib/$multiarch/libpcap.so.${stock_pcap%-*}" "$(libfile /usr/bin/ngrep)"
tool_outputs back /tmp/plain.pcap
t_check "ngrep's output on the plain capture is stock's again" \
    cmp "$root/tmp/out-stock.ngrep" "$root/tmp/out-back.ngrep"
t_expect_eq "the program built against our -dev runs with Debian's library" \
    "libpcap version ${stock_pcap%-*} (with TPACKET_V3): 400 packets" \
    "$(inroot /tmp/prog /tmp/plain.pcap 2>&1)"

t_done
