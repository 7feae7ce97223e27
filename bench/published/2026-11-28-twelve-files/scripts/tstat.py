import csv,collections,statistics as st,sys
rows=list(csv.DictReader(open(sys.argv[1])))
g=collections.defaultdict(list)
for r in rows: g[(r['input'],r['config'],r['version'])].append(r)
def fmt(v): return "%.3f (%.3f-%.3f)"%(st.median(v),min(v),max(v))
print("| input | config | version | wall s | CPU s (user+sys) | n |")
print("|---|---|---|---|---|---|")
keys=[]
for r in rows:
    k=(r['input'],r['config'],r['version'])
    if k not in keys: keys.append(k)
order={'before':0,'after':1,'stock':2}
cfgs=[]
for k in keys:
    if k[1] not in cfgs: cfgs.append(k[1])
keys.sort(key=lambda k:(k[0],cfgs.index(k[1]),order[k[2]]))
for k in keys:
    w=[float(r['wall_s']) for r in g[k]]; c=[float(r['user_s'])+float(r['sys_s']) for r in g[k]]
    print("| %s | %s | %s | %s | %s | %d |"%(k[0],k[1],k[2],fmt(w),fmt(c),len(w)))
print()
print("| input | config | wall after/before (medians) | CPU after/before (medians) |")
print("|---|---|---|---|")
seen=[]
for k in keys:
    if k[2]!='before': continue
    b=g[k]; a=g[(k[0],k[1],'after')]
    wb=st.median(float(r['wall_s']) for r in b); wa=st.median(float(r['wall_s']) for r in a)
    cb=st.median(float(r['user_s'])+float(r['sys_s']) for r in b); ca=st.median(float(r['user_s'])+float(r['sys_s']) for r in a)
    print("| %s | %s | %.3f | %.3f |"%(k[0],k[1],wa/wb,ca/cb))
