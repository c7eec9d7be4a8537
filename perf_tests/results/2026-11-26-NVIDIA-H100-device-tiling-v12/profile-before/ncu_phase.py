import csv, sys, collections
rows=list(csv.reader(open(sys.argv[1])))
h=rows[1]; data=rows[2:]
ia=h.index('Warp Stall Sampling (All Samples)'); ie=h.index('Instructions Executed')
def f(x):
  try: return float(x)
  except: return 0.0
tot=sum(f(r[ia]) for r in data); tote=sum(f(r[ie]) for r in data)
# contiguous segments: break where a BAR or a marker changes; simply bucket by index ranges given on argv
bounds=[int(x) for x in sys.argv[2:]]
seg=collections.Counter(); sege=collections.Counter()
for k,r in enumerate(data):
  b=sum(1 for x in bounds if k>=x)
  seg[b]+=f(r[ia]); sege[b]+=f(r[ie])
for b in sorted(seg):
  lo=bounds[b-1] if b>0 else 0; hi=bounds[b] if b<len(bounds) else len(data)
  print(f'[{lo:5d},{hi:5d}) samples {100*seg[b]/tot:5.1f}%  instr {100*sege[b]/tote:5.1f}%  first: {data[lo][1].strip()[:50]}')
