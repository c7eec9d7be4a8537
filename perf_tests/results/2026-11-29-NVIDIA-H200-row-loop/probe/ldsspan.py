import sys,re,subprocess
# ldsspan.py file(.cubin|.sass): per ebisu2d kernel depth, instruction indices of its LDS.64 and the span of the row's queue loads
src=sys.argv[1]
txt=subprocess.run(['/tmp/nvapt/x/usr/bin/nvdisasm','-c',src],capture_output=True,text=True).stdout if src.endswith('.cubin') else open(src).read()
for f in re.split(r'\n//-+ \.text\.|\n\s+Function : ',txt)[1:]:
    m=re.search(r'ebisu2d_kernel.*?EEdLi(\d+)E',f.split('\n',1)[0])
    if not m: continue
    ins=[mm.group(2).strip() for mm in re.finditer(r'\n\s+/\*([0-9a-f]{4,})\*/\s+(.*?);',f)]
    idx=[i for i,t in enumerate(ins) if re.match(r'(@\S+\s+)?LDS\.64 ',t)]
    # the row's queue loads: the largest run of LDS.64 whose neighbours are closer than 60 instructions
    runs=[[idx[0]]] if idx else []
    for i in idx[1:]:
        (runs[-1].append(i) if i-runs[-1][-1]<60 else runs.append([i]))
    r=max(runs,key=len) if runs else []
    dfma=sum(1 for t in ins[r[0]:r[-1]+1] if 'DFMA' in t) if r else 0
    bar=[i for i,t in enumerate(ins) if 'BAR.SYNC' in t and r and i>r[0]]
    body=(bar[0]-r[0]) if bar else -1
    print(f"[to barrier {body}] depth {m.group(1)}: {len(ins)} instr; queue loads {len(r)} over {r[-1]-r[0] if r else 0} instr ({dfma} DFMA between); at {[x-r[0] for x in r]}")
