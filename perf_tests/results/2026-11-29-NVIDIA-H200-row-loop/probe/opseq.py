import sys,re,subprocess
src=sys.argv[1]; depth=sys.argv[2]
txt=subprocess.run(['/tmp/nvapt/x/usr/bin/nvdisasm','-c',src],capture_output=True,text=True).stdout if src.endswith('.cubin') else open(src).read()
for f in re.split(r'\n//-+ \.text\.|\n\s+Function : ',txt)[1:]:
    m=re.search(r'ebisu2d_kernel.*?EEdLi(\d+)E',f.split('\n',1)[0])
    if not m or m.group(1)!=depth: continue
    ins=[re.sub(r'^@\S+\s+','',mm.group(1).strip()) for mm in re.finditer(r'\n\s+/\*[0-9a-f]{4,}\*/\s+(.*?);',f)]
    out=''
    for t in ins:
        op=t.split()[0] if t else ''
        c={'LDS.64':'L','DFMA':'F','DMUL':'F','DADD':'F','STS.64':'S','BAR.SYNC.DEFER_BLOCKING':'|','LDGSTS.E.64':'c','STG.E.64':'G','BRA':'^'}.get(op, 'm' if 'MOV' in op else '.')
        out+=c
    i=out.find('L'); print(out[i-20:i+480])
    break
