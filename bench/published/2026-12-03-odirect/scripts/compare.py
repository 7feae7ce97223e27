#!/usr/bin/env python3
# compare.py: medians of the offline copies before (offline-before1/2)
# and after (offline-after1/2), per type and configuration of ours.
import csv, os, statistics as st
here = os.path.dirname(os.path.abspath(__file__)) + '/..'
def load(runs):
    d = {}
    for run in runs:
        for r in csv.DictReader(open('%s/offline-%s/offline.csv' % (here, run))):
            if r['status'] == 'ok':
                d.setdefault((r['type'], r['config']), []).append(
                    (float(r['seconds']), int(r['in_bytes']), int(r['out_bytes'])))
    return d
b, a = load(['before1', 'before2']), load(['after1', 'after2'])
print('| frames | tcpdump | before MB/s | after MB/s | after/before | size before | size after |')
print('|---|---|---|---|---|---|---|')
for k in sorted(b):
    if k not in a or not (k[1] == 'stock' or k[1].startswith('ours')):
        continue
    inb = b[k][0][1]
    bs, as_ = st.median(x[0] for x in b[k]), st.median(x[0] for x in a[k])
    print('| %s | %s | %.0f | %.0f | %.2f | %.3f | %.3f |' % (k[0], k[1],
        inb / bs / 1e6, inb / as_ / 1e6, bs / as_,
        st.median(x[2] for x in b[k]) / inb, st.median(x[2] for x in a[k]) / inb))
