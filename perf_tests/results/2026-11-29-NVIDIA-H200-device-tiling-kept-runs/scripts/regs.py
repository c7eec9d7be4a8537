import re,sys
name=None; sp=None
for l in open(sys.argv[1]):
    m=re.search(r"Compiling entry function .(\S+).",l)
    if m:
        n=m.group(1); name = n if "device_tiling_kernel" in n else None; sp=None
    if name and "spill stores" in l:
        sp=re.search(r"(\d+) bytes spill stores",l).group(1)
    if name and "Used" in l and "registers" in l:
        st=re.search(r"(Linear|Functor)Stencil\w*?(\d+)(Star|Box)Shape",name)
        rl=re.search(r"ELi(\d+)EEEvT2",name)
        print(name[60:200] if not st else st.groups(), "regs", re.search(r"Used (\d+) registers",l).group(1), "spill", sp)
