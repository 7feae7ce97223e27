# Per-function difference of two callgrind outputs (callgrind_annotate --inclusive=no): fndiff.py BEFORE.cg AFTER.cg [records [min]]; functions whose difference is at least min (default records/10) are listed.
import re,sys,subprocess
def load(f):
    out=subprocess.run(['callgrind_annotate','--inclusive=no','--threshold=100',f],capture_output=True,text=True).stdout
    d={}
    for l in out.splitlines():
        m=re.match(r'^\s*([\d,]+) \([^)]*\)\s+(.*)$',l)
        if m and 'PROGRAM TOTALS' not in l:
            k=re.sub(r'/tmp/perf5/(before|after)/','/tmp/perf5/X/',m.group(2))
            k=re.sub(r'\[/usr/lib/x86_64-linux-gnu/(ld-linux-x86-64.so.2|libc.so.6)\]','[libc or ld.so: callgrind names either]',k)
            d[k]=d.get(k,0)+int(m.group(1).replace(',',''))
    return d
a=load(sys.argv[1]); b=load(sys.argv[2]); n=int(sys.argv[3]) if len(sys.argv)>3 else 100000
rows=[(b.get(k,0)-a.get(k,0),a.get(k,0),b.get(k,0),k) for k in set(a)|set(b)]
thr=int(sys.argv[4]) if len(sys.argv)>4 else n//10
rows=[r for r in rows if abs(r[0])>=thr]
rows.sort()
print("%14s %14s %12s %8s  %s"%("before","after","diff","/record","function"))
for d,x,y,k in rows: print("%14d %14d %+12d %+8.2f  %s"%(x,y,d,d/n,k))
print("total diff %+d  (%+.2f /record)"%(sum(b.values())-sum(a.values()),(sum(b.values())-sum(a.values()))/n))
