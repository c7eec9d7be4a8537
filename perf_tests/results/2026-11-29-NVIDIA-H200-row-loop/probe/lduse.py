import sys,re,subprocess
# lduse.py file depth: for the row's queue loads of the depth-`depth` ebisu2d kernel, instructions until the loaded register is first read
src=sys.argv[1]; depth=sys.argv[2]
txt=subprocess.run(['/tmp/nvapt/x/usr/bin/nvdisasm','-c',src],capture_output=True,text=True).stdout if src.endswith('.cubin') else open(src).read()
for f in re.split(r'\n//-+ \.text\.|\n\s+Function : ',txt)[1:]:
    m=re.search(r'ebisu2d_kernel.*?EEdLi(\d+)E',f.split('\n',1)[0])
    if not m or m.group(1)!=depth: continue
    ins=[mm.group(2).strip() for mm in re.finditer(r'\n\s+/\*([0-9a-f]{4,})\*/\s+(.*?);',f)]
    idx=[i for i,t in enumerate(ins) if re.match(r'(@\S+\s+)?LDS\.64 R\d+, \[R\d+\+0x[0-9a-f]+\]',t)]
    out=[]
    for i in idx:
        r=int(re.search(r'LDS\.64 R(\d+)',ins[i]).group(1))
        d=None
        for k in range(i+1,min(len(ins),i+400)):
            ops=ins[k].split(None,1)
            if len(ops)<2: continue
            srcs=ops[1].split(',')[1:] if not ops[0].startswith(('ST','@')) else ops[1].split(',')
            if any(re.search(rf'\bR{r}\b',x) for x in srcs): d=k-i; break
        out.append(d)
    print(f"depth {depth}: load->use distances {out}")
    break
