# run after scripts/zstdframes.sh's two tcpdump commands for the real trace (it deletes its files; re-create them first)
import subprocess
def frames(fn):
    b=open(fn,'rb').read(); i=0; out=[]
    while i<len(b):
        fhd=b[i+4]; j=i+5
        ss=(fhd>>5)&1; fcsf=fhd>>6; did=fhd&3; chk=(fhd>>2)&1
        if not ss: j+=1
        j+=[0,1,2,4][did]
        fcs_len=[1 if ss else 0,2,4,8][fcsf]; j+=fcs_len
        while True:
            bh=int.from_bytes(b[j:j+3],'little'); last=bh&1; bt=(bh>>1)&3; bs=bh>>3; j+=3
            j+= 1 if bt==1 else bs
            if last: break
        if chk: j+=4
        out.append(b[i:j]); i=j
    return out
def dec(fr): return subprocess.run(['zstd','-dcq'],input=fr,capture_output=True).stdout
A=[dec(f) for f in frames('/tmp/perf3/t/real-before.zst')]
B=[dec(f) for f in frames('/tmp/perf3/t/real-after.zst')]
print("frame content equal (before[k] vs after[k+1]):", sum(1 for x,y in zip(A[1:],B[2:]) if x==y), "of", len(A)-1)
print("first data frame: after[1] == before[0][24:] + extra?", B[1].startswith(A[0][24:]), len(B[1])-len(A[0][24:]))
