import sys,re,subprocess,collections
def h(src,depth):
    txt=subprocess.run(['/tmp/nvapt/x/usr/bin/nvdisasm','-c',src],capture_output=True,text=True).stdout
    for f in re.split(r'\n//-+ \.text\.',txt)[1:]:
        m=re.search(r'ebisu2d_kernel.*?EEdLi(\d+)E',f.split('\n',1)[0])
        if m and m.group(1)==depth:
            ins=[re.sub(r'^@\S+\s+','',mm.group(1).strip()).split()[0] for mm in re.finditer(r'\n\s+/\*[0-9a-f]{4,}\*/\s+(.*?);',f)]
            return collections.Counter(ins)
a=h(sys.argv[1],sys.argv[3]); b=h(sys.argv[2],sys.argv[3])
for k in sorted(set(a)|set(b)):
    if a[k]!=b[k]: print(f"{k:20s} {a[k]:5d} {b[k]:5d}")
