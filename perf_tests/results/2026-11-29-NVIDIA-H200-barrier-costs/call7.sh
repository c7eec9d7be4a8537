#!/usr/bin/env bash
# session 24, call 7: barrier costs (clbar.cu): grid.sync against Hopper cluster.sync (2-16 blocks per cluster,
# one block per SM), and a cluster step with one distributed-shared-memory read per thread.
source "$(dirname "$0")/common.sh"
chmod +x build-dT/clbar
timeout 120 build-dT/clbar | tee $R/clbar.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
