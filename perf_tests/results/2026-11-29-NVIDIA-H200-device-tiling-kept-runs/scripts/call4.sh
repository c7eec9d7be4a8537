#!/bin/bash
# call 4: SASS and ncu of the j2d5pt device-tiling kernels, HEAD (H) against resident runs (N7), 256^2 depth 12
source "$(dirname "$0")/common.sh"
which ncu cuobjdump
for v in H N7; do
  cuobjdump -sass /tmp/bin/ab_$v > $R/sass_$v.txt 2>&1
  python3 - $R/sass_$v.txt > $R/sass_${v}_j2d5pt.txt <<'PY'
import re,sys
txt=open(sys.argv[1]).read()
for f in re.split(r"\n\s+Function : ",txt):
    name=f.split("\n",1)[0]
    if "device_tiling_kernel" in name and "LinearStencilILi2ELi1E" in name and "StarShape" in name:
        print("FUNCTION", name); print(f)
PY
  rm $R/sass_$v.txt
  AB_DEPTH=12 AB_STARS=1 AB_STEPS=240 AB_REPS=1 AB_NOCHECK=1 timeout 200 ncu --kernel-name regex:device_tiling_kernel --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables --section SourceCounters /tmp/bin/ab_$v 256 > $R/ncu_$v.txt 2>&1
  grep -i "duration\|instructions\|Stall\|bank\|Executed Ipc\|Warp Cycles" $R/ncu_$v.txt | head -40
done
wc -l $R/*.txt
