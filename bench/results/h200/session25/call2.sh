#!/usr/bin/env bash
# session 25 call 2: half-warp solves (half_chunk for chunks of BL_HALF_MIN columns and more), lab build gpu51
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu51
cd $R/internal/gpu/potrf
for m in 8 32 16 4 2; do
  echo "=== $m $(date +%T)" >> $L/stages.txt
  ZZ_OPTS="-DBL_HALF_MIN=$m" timeout 40 $B/potrf.test -test.run 'TestZZRes' -test.v > $L/res-h$m.log 2>&1
  ZZ_OPTS="-DBL_HALF_MIN=$m" timeout 60 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/timing-h$m.log 2>&1
done
cd $R/internal/gpu/posv
for m in 8 2; do
  echo "=== check $m $(date +%T)" >> $L/stages.txt
  ZZ_OPTS="-DBL_HALF_MIN=$m" timeout 80 $B/posv.test -test.run 'TestPosv$/float32' -test.v > $L/posv-h$m.log 2>&1; echo "rc $?" >> $L/posv-h$m.log
done
for m in 8 4 32; do
  echo "=== vendor $m $(date +%T)" >> $L/stages.txt
  ZZ_OPTS="-DBL_HALF_MIN=$m" timeout 40 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/posvtiming-h$m.log 2>&1
done
cd $OUT && tar cJf c2.tar.xz logs && rm -rf logs
