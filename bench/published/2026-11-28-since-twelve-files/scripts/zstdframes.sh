#!/bin/bash
# zstd frame layout of the real trace's zstd:-1 output, before and after (content size, compressed size of each frame).
cd /tmp/perf3
for v in before after; do d=$([ $v = before ] && echo /tmp/perf/after || echo /tmp/perf3/after)
	LD_LIBRARY_PATH=$d/lib $d/tcpdump -r /tmp/perf/data/httpreal100k.pcap -w t/real-$v.zst --compress=zstd:-1 --writer-ring=0 2>/dev/null
	LD_LIBRARY_PATH=$d/lib $d/tcpdump -r /tmp/perf/data/http400k.pcap -w t/h400-$v.zst --compress=zstd:-1 --writer-ring=0 2>/dev/null
done
python3 - <<'PY'
def frames(fn):
    b=open(fn,'rb').read(); i=0; out=[]
    while i<len(b):
        assert b[i:i+4]==b'\x28\xb5\x2f\xfd', (fn,i)
        fhd=b[i+4]; j=i+5
        ss=(fhd>>5)&1; fcsf=fhd>>6; did=fhd&3; chk=(fhd>>2)&1
        if not ss: j+=1
        j+=[0,1,2,4][did]
        fcs_len=[1 if ss else 0,2,4,8][fcsf]
        fcs=int.from_bytes(b[j:j+fcs_len],'little') if fcs_len else None
        if fcsf==1: fcs+=256
        j+=fcs_len
        while True:
            bh=int.from_bytes(b[j:j+3],'little'); last=bh&1; bt=(bh>>1)&3; bs=bh>>3; j+=3
            j+= 1 if bt==1 else bs
            if last: break
        if chk: j+=4
        out.append((fcs,j-i)); i=j
    return out
for name in ('real','h400'):
    a=frames('/tmp/perf3/t/%s-before.zst'%name); b=frames('/tmp/perf3/t/%s-after.zst'%name)
    print("== %s: before %d frames, after %d frames"%(name,len(a),len(b)))
    print("before first 6 (content bytes, compressed bytes):",a[:6])
    print("after  first 7 (content bytes, compressed bytes):",b[:7])
    ca=[x[0] for x in a]; cb=[x[0] for x in b]
    print("after[0] is the 24-byte file header alone:",cb[0]==24)
    print("data frames' content sizes the same as before's, the first less its 24 header bytes:", cb[1]==ca[0]-24 and cb[2:]==ca[1:])
    same=sum(1 for x,y in zip(a[1:],b[2:]) if x==y)
    print("frames after the first identical in (content, compressed) size: %d of %d"%(same,len(a)-1))
PY
rm -f t/real-*.zst t/h400-*.zst
