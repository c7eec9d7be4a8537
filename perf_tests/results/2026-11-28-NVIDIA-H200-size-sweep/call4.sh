#!/usr/bin/env bash
# Session 19, call 4: Cuda tests of this tree (device-tiling windows as a ring of registers for 2-D box
# stencils; the measured choice without ranking margins): presets, device tiling, states, measured choice.
# SASS of the device-tiling kernels (windows shifted / ring) and of the depth-10 j2d5pt SM-tiling kernel
# before and after 778e322 (202 -> 188 registers).
source "$(dirname "$0")/common.sh"
for b in tests3; do [ -f build-device19/$b.xz ] && xz -dc build-device19/$b.xz > /tmp/bin/$b; done; chmod +x /tmp/bin/*
s=$(date +%s); timeout 330 /tmp/bin/tests3 > $R/unit.log 2>&1; echo "unit rc $? $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit.log | tail -12
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
mkdir -p $R/sass
for f in build-device19/probe10/*.o build-device19/probe/*.o; do b=$(basename $f .o); $CUOBJ -sass $f > $R/sass/$b.sass 2>&1; done
for f in $R/sass/*.sass; do python3 - $f <<'PY'
import re,sys,collections
txt=open(sys.argv[1]).read()
for part in txt.split('Function : ')[1:]:
    name=part.split('\n',1)[0]
    if 'ebisu2d_kernel' not in name and 'device_tiling_kernel' not in name: continue
    ops=re.findall(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)', part)
    c=collections.Counter(ops)
    tag=re.search(r'dLi(\d+)ELb(\d)ELb(\d)',name)
    print(sys.argv[1].split('/')[-1], (tag.groups() if tag else name[:60]), 'total',len(ops), ' '.join('%s %d'%(k,v) for k,v in c.most_common(14)))
PY
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
