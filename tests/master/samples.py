#!/usr/bin/env python3
# Writes the savefiles that the read-compressed pull requests add to
# libpcap's tests (libpcap/tests/filter/compressed.pcap*, for filters
# applied to them, and libpcap/tests/compressed-*, for the errors) and
# to tcpdump's (tcpdump/tests/compressed.pcap*, copies of the former).
# filter/: six Ethernet frames of different protocols as a plain pcap,
# and the same file compressed by gzip(1), lz4(1) and zstd(1), each in
# two units that split the records 3 + 3, as the tools make them when
# they compress two parts and the parts are concatenated.  The others:
# a gzip file of text, the zstd file cut inside its first frame, and
# the gzip file with its first member's CRC-32 flipped.
# filter/compressed.pcapng*: the same six frames as pcapng, plain and
# compressed by each tool, in two units that split the blocks (section
# header, interface description and 3 packets) + 3 packets.
# filter/compressed-large.pcap.zst: 65 frames of 262,144 bytes, UDP and
# TCP in turn, padded with zeros: 17 MB in one zstd frame, larger than
# the reader holds whole, so that it is streamed.
# Usage: samples.py DIR (DIR/filter/ is made)
import os
import struct
import subprocess
import sys

def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def eth(dst, src, etype, payload):
    return bytes.fromhex(dst) + bytes.fromhex(src) + struct.pack('!H', etype) + payload

def ipv4(src, dst, proto, payload):
    h = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), 1, 0, 64,
                    proto, 0, bytes(src), bytes(dst))
    h = h[:10] + struct.pack('!H', csum(h)) + h[12:]
    return h + payload

def ipv6(src, dst, nh, payload):
    return struct.pack('!IHBB16s16s', 0x60000000, len(payload), nh, 64,
                       bytes(src), bytes(dst)) + payload

A = '020000000001'
B = '020000000002'
H1, H2 = [10, 0, 0, 1], [10, 0, 0, 2]
S1 = [0xfe, 0x80] + [0] * 13 + [1]
S2 = [0xfe, 0x80] + [0] * 13 + [2]
tcp_syn = struct.pack('!HHIIBBHHH', 1234, 80, 1, 0, 0x50, 0x02, 65535, 0, 0)
tcp_ack = struct.pack('!HHIIBBHHH', 80, 1234, 7, 2, 0x50, 0x12, 65535, 0, 0)
udp = struct.pack('!HHHH', 40000, 9, 8 + 4, 0) + b'abcd'
icmp = struct.pack('!BBHHH', 8, 0, 0, 1, 1) + b'ping'
arp = struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, bytes.fromhex(A),
                  bytes(H1), b'\0' * 6, bytes(H2))
frames = [
    eth(B, A, 0x0800, ipv4(H1, H2, 6, tcp_syn)),
    eth(B, A, 0x0800, ipv4(H1, H2, 17, udp)),
    eth(B, A, 0x86dd, ipv6(S1, S2, 17, udp)),
    eth('ffffffffffff', A, 0x0806, arp),
    eth(B, A, 0x0800, ipv4(H1, H2, 1, icmp)),
    eth(A, B, 0x0800, ipv4(H2, H1, 6, tcp_ack)),
]
hdr = struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1)
recs = [struct.pack('<IIII', 1700000000 + i, 0, len(f), len(f)) + f
        for i, f in enumerate(frames)]
parts = [hdr + b''.join(recs[:3]), b''.join(recs[3:])]

def compress(cmd, data):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                          check=True).stdout

GZIP = ['gzip', '-n', '-c']
out = sys.argv[1]
fdir = os.path.join(out, 'filter')
os.makedirs(fdir, exist_ok=True)
units = {}
with open(os.path.join(fdir, 'compressed.pcap'), 'wb') as f:
    f.write(b''.join(parts))
for ext, cmd in (('gz', GZIP), ('lz4', ['lz4', '-c', '-q']),
                 ('zst', ['zstd', '-c', '-q', '--no-progress'])):
    units[ext] = [compress(cmd, part) for part in parts]
    with open(os.path.join(fdir, 'compressed.pcap.' + ext), 'wb') as f:
        f.write(b''.join(units[ext]))

def block(btype, body):
    body += b'\0' * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack('<II', btype, n) + body + struct.pack('<I', n)

shb = block(0x0A0D0D0A, struct.pack('<IHHq', 0x1A2B3C4D, 1, 0, -1))
idb = block(1, struct.pack('<HHI', 1, 0, 262144))
def epb(i, fr):
    ts = (1700000000 + i) * 1000000    # microseconds, the default
    return block(6, struct.pack('<IIIII', 0, ts >> 32, ts & 0xffffffff,
                                len(fr), len(fr)) + fr)

epbs = [epb(i, fr) for i, fr in enumerate(frames)]
ng_parts = [shb + idb + b''.join(epbs[:3]), b''.join(epbs[3:])]
with open(os.path.join(fdir, 'compressed.pcapng'), 'wb') as f:
    f.write(b''.join(ng_parts))
for ext, cmd in (('gz', GZIP), ('lz4', ['lz4', '-c', '-q']),
                 ('zst', ['zstd', '-c', '-q', '--no-progress'])):
    with open(os.path.join(fdir, 'compressed.pcapng.' + ext), 'wb') as f:
        f.write(b''.join(compress(cmd, part) for part in ng_parts))

BIG = 262144
big = [hdr]
for i in range(65):
    if i % 2 == 0:
        fr = eth(B, A, 0x0800, ipv4(H1, H2, 17, udp))
    else:
        fr = eth(B, A, 0x0800, ipv4(H1, H2, 6, tcp_syn))
    fr += b'\0' * (BIG - len(fr))
    big.append(struct.pack('<IIII', 1700000000 + i, 0, BIG, BIG) + fr)
with open(os.path.join(fdir, 'compressed-large.pcap.zst'), 'wb') as f:
    f.write(compress(['zstd', '-c', '-q', '--no-progress'], b''.join(big)))

with open(os.path.join(out, 'compressed-not-a-capture.gz'), 'wb') as f:
    f.write(compress(GZIP, b'This is not a capture file.\n'))
with open(os.path.join(out, 'compressed-truncated.pcap.zst'), 'wb') as f:
    f.write(units['zst'][0][:20])
bad = bytearray(b''.join(units['gz']))
bad[len(units['gz'][0]) - 8] ^= 0xff    # the first member's CRC-32
with open(os.path.join(out, 'compressed-bad-crc.pcap.gz'), 'wb') as f:
    f.write(bad)
