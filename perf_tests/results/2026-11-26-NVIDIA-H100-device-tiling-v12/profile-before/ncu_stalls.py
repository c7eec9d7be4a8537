import csv, sys, collections, re
rows=list(csv.reader(open(sys.argv[1])))
h=rows[1]; data=rows[2:]
reasons=[(i,c) for i,c in enumerate(h) if c.startswith('stall_') and 'Not Issued' not in c]
ia=h.index('Warp Stall Sampling (All Samples)'); ie=h.index('Instructions Executed')
def f(x):
  try: return float(x)
  except: return 0.0
tot=sum(f(r[ia]) for r in data)
agg=collections.Counter()
for r in data:
  for i,c in reasons: agg[c]+=f(r[i])
print('stall reasons overall (% of samples):', ', '.join(f'{c[6:]} {100*v/tot:.1f}' for c,v in agg.most_common(10)))
# phases: mark instructions by address order; print cumulative samples by address blocks split at BAR / grid-sync markers
print('instructions with >0.4% samples, in address order:')
for k,r in enumerate(data):
  s=f(r[ia])
  if s/tot>0.004:
    top=sorted(((f(r[i]),c[6:]) for i,c in reasons), reverse=True)[:2]
    print(f'{k:5d} {r[0][-5:]} {100*s/tot:5.1f}% ex {f(r[ie]):8.0f} {r[1].strip()[:60]:60s} {top[0][1]} {100*top[0][0]/max(s,1):.0f}%, {top[1][1]}')
