#!/usr/bin/env bash
# session 26, call 7: fp32 read-only fields (abf.cpp): in-place, SM and device tiling forced, the generic path
# and automatic; variable-conductivity heat (star-declared functor) and j3d7pt + centre-only source, 96^3-128^3.
source "$(dirname "$0")/common.sh"
/tmp/bin/abf 96 112 128 2>&1 | grep RESULT | tee $R/abf.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
