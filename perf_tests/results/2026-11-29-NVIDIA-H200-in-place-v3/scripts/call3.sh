#!/usr/bin/env bash
# session 24, call 3: A/B of the in-place kernel, one small program per header (ab.cpp): A = HEAD, B = HEAD + split
# barrier, C = column kept + split barrier, D = C with the column kept only at 16 and 32 cells; alternating, 3 rounds.
source "$(dirname "$0")/common.sh"
start_clocks clocks-ab.csv
for rep in 1 2 3; do
  for v in A C E; do
    timeout 60 /tmp/bin/ab_$v > $R/ab-$v-$rep.log 2>&1 || echo "ab $v rc $?"
  done
done
stop_clocks
for v in A C E; do echo "== $v"; grep -h "RESULT" $R/ab-$v-*.log | awk '{print $2, $3, $4}' | sort | awk '{k=$1" "$2; a[k]=a[k]" "$3} END {for (k in a) print k, a[k]}' | sort; done
for v in A C E; do grep -h CHECK $R/ab-$v-1.log | sed "s/^/$v /"; done | grep -v " ok" ; grep -c " ok" $R/ab-*-1.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
