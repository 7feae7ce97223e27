# cg/summary.txt -> markdown table (before, after, difference, per record), each rep.
import collections
rows=[l.split() for l in open('/tmp/perf3/cg/summary.txt') if not l.startswith('input')]
d=collections.OrderedDict()
for name,v,rep,ir,md5 in rows: d.setdefault((name,rep),{})[v]=(int(ir),md5)
print("| case | rep | before Ir | after Ir | difference | % | per record | output md5 before / after |")
print("|---|---|---|---|---|---|---|---|")
for (name,rep),x in sorted(d.items(),key=lambda k:(list(dict.fromkeys(n for n,_ in d)).index(k[0][0]),k[0][1])):
    n=20000 if name.startswith('real') else 40000
    b,a=x['before'][0],x['after'][0]
    print("| %s | %s | {:,} | {:,} | {:+,} | %+.2f%% | %+.1f | %s / %s |".format(b,a,a-b)%(name,rep,100*(a-b)/b,(a-b)/n,x['before'][1],x['after'][1]))
