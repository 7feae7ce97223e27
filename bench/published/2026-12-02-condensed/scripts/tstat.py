# Summary of timing CSVs (one table per file given, then all files pooled).
import csv,collections,statistics as st,sys
def load(fs):
    rows=[]
    for f in fs: rows+=list(csv.DictReader(open(f)))
    return rows
def fmt(v): return "%.3f (%.3f-%.3f)"%(st.median(v),min(v),max(v))
def table(rows,title):
    g=collections.defaultdict(list)
    for r in rows: g[(r['input'],r['config'],r['version'])].append(r)
    print("### "+title+"\n")
    print("| input | options | before wall | after wall | before CPU | after CPU | wall after/before | CPU after/before | n each | load avg (1 min) during |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    seen=[]
    for r in rows:
        k=(r['input'],r['config'])
        if k in seen: continue
        seen.append(k)
        b=g[k+('before',)]; a=g[k+('after',)]
        wb=[float(r['wall_s']) for r in b]; wa=[float(r['wall_s']) for r in a]
        cb=[float(r['user_s'])+float(r['sys_s']) for r in b]; ca=[float(r['user_s'])+float(r['sys_s']) for r in a]
        la=[float(r['loadavg1']) for r in a+b]
        print("| %s | %s | %s | %s | %s | %s | %.3f | %.3f | %d | %.2f-%.2f |"%(k[0],k[1],fmt(wb),fmt(wa),fmt(cb),fmt(ca),st.median(wa)/st.median(wb),st.median(ca)/st.median(cb),len(wb),min(la),max(la)))
    print()
for f in sys.argv[1:]: table(load([f]),f)
table(load(sys.argv[1:]),"all passes pooled")
