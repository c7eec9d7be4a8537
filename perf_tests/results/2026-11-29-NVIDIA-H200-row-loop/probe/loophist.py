import sys,re,collections
def loop(path,depth):
    txt=open(path).read()
    for f in re.split(r'\n\s+Function : ',txt)[1:]:
        m=re.search(r'ebisu2d_kernel.*?EEdLi(\d+)E',f.split('\n',1)[0])
        if not m or m.group(1)!=depth: continue
        ins=[(int(mm.group(1),16),mm.group(2).strip()) for mm in re.finditer(r'\n\s+/\*([0-9a-f]{4,})\*/\s+(.*?);',f)]
        best=None
        for a,t in ins:
            b2=re.search(r'BRA (0x[0-9a-f]+)',t)
            if b2 and int(b2.group(1),16)<a:
                top=int(b2.group(1),16); body=[x for x in ins if top<=x[0]<=a]
                if sum('BAR.SYNC' in x[1] for x in body)==1 and any(x[1].startswith('LDS') for x in body) and (best is None or len(body)<len(best)): best=body
        return best
a=loop(sys.argv[1],sys.argv[3]); b=loop(sys.argv[2],sys.argv[3])
op=lambda t: re.sub(r'^@\S+\s+','',t).split()[0]
ha=collections.Counter(op(t) for _,t in a); hb=collections.Counter(op(t) for _,t in b)
for k in sorted(set(ha)|set(hb)):
    if ha[k]!=hb[k]: print(f"{k:22s} {ha[k]:4d} {hb[k]:4d}")
if len(sys.argv)>4:
    for _,t in b: print(t)
