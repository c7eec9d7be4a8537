#!/usr/bin/env bash
# Session 19, call 5: device-tiling windows as a ring of registers (bench3) against the same tree without
# the ring (bench2), alternating; j2d5pt / j2d9pt-gol 2048^2 at forced depths 8 and 10 (bench3);
# j3d13pt 64^3 again (0.96x of the best plain loop in call 3); SASS of the probe kernels (call 4 could not
# carry them beside its test binary).
source "$(dirname "$0")/common.sh"
for b in bench2 bench3; do [ -f build-device19/$b.xz ] && xz -dc build-device19/$b.xz > /tmp/bin/$b; done; chmod +x /tmp/bin/*
P="--no-spmv --plain-variants fast --ebisu-variants automatic --ebisu-strategies device_tiling --reps 5"
for round in 1 2; do for b in bench2 bench3; do for n in 256 512 1024; do
  T=20000; [ $n = 1024 ] && T=9480
  timeout 60 /tmp/bin/$b $P --stencils j2d25pt,j2d9pt-gol --size2d $n --steps $T --json $R/ring-$b-$n-$round.json > $R/ring-$b-$n-$round.log 2>&1
  echo "$b $n round $round rc $?: $(grep -E 'ebisu-device' $R/ring-$b-$n-$round.log | awk '{for(i=1;i<=NF;i++) if($i=="GCells/s") print $1, $(i-1)}' | paste -sd' ')"
done; done; done
for st in j2d5pt j2d9pt-gol; do timeout 60 /tmp/bin/bench3 --no-spmv --plain-variants fast --ebisu-variants automatic --ebisu-depths 8,10 --reps 5 --stencils $st --size2d 2048 --steps 2400 --json $R/depths-$st-2048.json > $R/depths-$st-2048.log 2>&1
  echo "$st 2048^2 rc $?"; grep -E "automatic|depth" $R/depths-$st-2048.log | grep -v "^==" | head -5; done
for b in bench2 bench3; do timeout 60 /tmp/bin/$b --no-spmv --plain-variants fast --ebisu-variants automatic --stencils j3d13pt --size3d 64 --steps 20000 --reps 5 --json $R/j3d13pt-64-$b.json > $R/j3d13pt-64-$b.log 2>&1
  echo "$b j3d13pt 64^3 rc $?: $(grep -E 'automatic|graph-mdrange-tile-32x4x1 ' $R/j3d13pt-64-$b.log | awk '{for(i=1;i<=NF;i++) if($i=="GCells/s") print $2, $(i-1)}' | paste -sd' ')"; done
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
