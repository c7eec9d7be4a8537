#!/bin/bash
# Dump the SASS of the ebisu3d kernels of the probe, one file per function (name hashed), plus an index.
set -e
B=${1:-./periodic_probe}
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
echo "cuobjdump: $CUOBJ"
$CUOBJ -sass $B > /tmp/all.sass
awk -v out="$OUT/sass" 'BEGIN{system("mkdir -p " out)}
/Function : /{name=$3; n++; f=sprintf("%s/f%03d.sass", out, n); print n, name >> (out "/index.txt")}
{ if (f != "") print > f }' /tmp/all.sass
wc -l $OUT/sass/*.sass | sort -n | tail -50 > $OUT/sass/sizes.txt
# keep only ebisu3d
for f in $OUT/sass/f*.sass; do head -3 $f | grep -q ebisu3d || rm $f; done
ls $OUT/sass | wc -l
