import csv, sys, re, collections
rows = list(csv.reader(open(sys.argv[1], errors='replace')))
# find header row
hi = next(i for i, r in enumerate(rows) if any('Source' == c.strip() for c in r))
h = [c.strip() for c in rows[hi]]
print('columns:', h[:12], '...', len(h))
src = h.index('Source')
def col(name):
    for i, c in enumerate(h):
        if c.startswith(name): return i
    return None
ca = col('Warp Stall Sampling (All')
cn = col('Warp Stall Sampling (Not')
ce = col('Instructions Executed')
data = []
for r in rows[hi+1:]:
    if len(r) <= max(src, ca or 0): continue
    try: a = float(r[ca] or 0)
    except: continue
    n = float(r[cn] or 0) if cn is not None and r[cn] else 0
    e = float(r[ce] or 0) if ce is not None and r[ce] else 0
    data.append((r[0], r[src].strip(), a, n, e))
tot = sum(d[2] for d in data); tote = sum(d[4] for d in data)
print(f'instructions {len(data)}, samples {tot:.0f}, warp instr executed {tote:.0f}')
cls = collections.Counter(); clse = collections.Counter()
for addr, s, a, n, e in data:
    op = re.sub(r'^@!?U?P\w+\s+', '', s).split(' ')[0].split('.')[0]
    cls[op] += a; clse[op] += e
print('samples by opcode:')
for op, a in cls.most_common(20): print(f'  {op:10s} {100*a/tot:5.1f}%  executed {clse[op]:.0f}')
print('top instructions:')
for addr, s, a, n, e in sorted(data, key=lambda d: -d[2])[:35]:
    print(f'  {addr:>8s} {100*a/tot:5.1f}% ex {e:8.0f}  {s[:90]}')
