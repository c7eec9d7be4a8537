import sys,re,subprocess
# sassloop.py file.cubin: per ebisu2d kernel, the row loop (the largest backward branch around a BAR.SYNC):
# body length, DFMA, LDS positions (relative to loop top), registers.
cubin=sys.argv[1]
txt=subprocess.run(['/tmp/nvapt/x/usr/bin/nvdisasm','-c',cubin],capture_output=True,text=True).stdout if cubin.endswith('.cubin') else open(cubin).read()
funcs=re.split(r'\n//-+ \.text\.|\n\s+Function : ',txt)
for f in funcs[1:]:
    name=f.split(' ',1)[0]
    m=re.search(r'ebisu2d_kernel.*?EEdLi(\d+)E',name)
    if not m: continue
    depth=m.group(1)
    ins=[]
    for line in f.split('\n'):
        mm=re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);',line)
        if mm: ins.append((int(mm.group(1),16),mm.group(2).strip()))
    labels={}
    for line in f.split('\n'):
        l=re.match(r'^(\.L_x_\d+):',line)
    # label addresses: lines ".L_x_N:" followed by instruction
    lines=f.split('\n'); pend=[]
    for line in lines:
        l=re.match(r'^(\.L_x_\d+):',line)
        if l: pend.append(l.group(1)); continue
        mm=re.match(r'\s+/\*([0-9a-f]{4,})\*/',line)
        if mm and pend:
            for p in pend: labels[p]=int(mm.group(1),16)
            pend=[]
    best=None
    for i,(a,t) in enumerate(ins):
        b=re.search(r'BRA `\((\.L_x_\d+)\)',t); b2=re.search(r'BRA (0x[0-9a-f]+)',t)
        top=labels.get(b.group(1)) if b else (int(b2.group(1),16) if b2 else None)
        if top is not None and top<a:
            body=[x for x in ins if top<=x[0]<=a]
            if sum('BAR.SYNC' in x[1] for x in body)==1 and any(x[1].startswith('LDS') for x in body) and (best is None or len(body)<len(best)): best=body
    if not best: continue
    lds=[i for i,(a,t) in enumerate(best) if t.split()[0].startswith('LDS') or (t.startswith('@') and 'LDS' in t and 'RZ' not in t)]
    dfma=sum(1 for a,t in best if 'DFMA' in t)
    print(f"depth {depth}: body {len(best)} instr, DFMA {dfma}, LDS {len(lds)} at {lds}")
