# cg/summary.txt -> markdown table (before, after, difference, after/before, per record, output md5), each rep.
import collections
rows=[l.split() for l in open('/tmp/perf5/cg/summary.txt') if l.strip()]
d=collections.OrderedDict()
for name,v,rep,ir,md5,size,rc in rows: d.setdefault(name,{}).setdefault(rep,{})[v]=(int(ir),md5,int(size),rc)
n=100000
print("| case | rep | before Ir | after Ir | difference | after/before | per record | output md5 before / after | output bytes |")
print("|---|---|---|---|---|---|---|---|---|")
for name,reps in d.items():
    for rep in sorted(reps):
        x=reps[rep]
        if 'before' not in x or 'after' not in x: continue
        b,a=x['before'][0],x['after'][0]
        same='same' if x['before'][1]==x['after'][1] else 'DIFFER'
        print("| %s | %s | {:,} | {:,} | {:+,} | %.6f | %+.2f | %s / %s (%s) | {:,} / {:,} |".format(b,a,a-b,x['before'][2],x['after'][2])%(name,rep,a/b,(a-b)/n,x['before'][1],x['after'][1],same))
