# cg/summary.txt -> one line a case: reps, before and after Ir (median of the reps), after/before of the medians,
# range of before and of after over the reps, per record, whether the outputs were the same.
import collections,statistics as st
rows=[l.split() for l in open('/tmp/perf5/cg/summary.txt') if l.strip()]
d=collections.OrderedDict()
for name,v,rep,ir,md5,size,rc in rows: d.setdefault(name,{}).setdefault(v,[]).append((rep,int(ir),md5))
print("| case | reps | before Ir (median) | after Ir (median) | after/before | per record | before range | after range | outputs before = after |")
print("|---|---|---|---|---|---|---|---|---|")
for name,x in d.items():
    b=[r[1] for r in x['before']]; a=[r[1] for r in x['after']]
    mb,ma=st.median(b),st.median(a)
    same=sum(1 for (rb,_,m1),(ra,_,m2) in zip(sorted(x['before']),sorted(x['after'])) if m1==m2)
    rng=lambda v: "{:,}".format(max(v)-min(v)) if len(v)>1 else "-"
    print("| %s | %d | {:,.0f} | {:,.0f} | %.5f | %+.2f | %s | %s | %d of %d |".format(mb,ma)%(name,len(b),ma/mb,(ma-mb)/100000,rng(b),rng(a),same,len(b)))
