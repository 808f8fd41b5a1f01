#!/usr/bin/env bash
# session 24 call 5: the landed s24 build (masked updates from 4 columns): resources, timing, TestPosv float32, Posv vs vendor
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu44
st() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
cd $R/internal/gpu/potrf
st res; timeout 30 $B/potrf.test -test.run 'TestZZRes' -test.v > $L/c5-res.log 2>&1
st timing; timeout 50 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/c5-posvwarp-timing.log 2>&1
cd $R/internal/gpu/posv
st check; timeout 40 $B/posv.test -test.run 'TestPosv$/float32' -test.v > $L/c5-posv-check.log 2>&1; echo "rc $?" >> $L/c5-posv-check.log
st vendor; timeout 25 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/c5-posv-timing.log 2>&1
cd $R
st done
cd $OUT && tar cJf c5.tar.xz logs && rm -rf logs && ls -la $OUT
