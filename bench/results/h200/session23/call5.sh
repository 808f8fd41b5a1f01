#!/usr/bin/env bash
# session 23 call 5: the mutant (forward sweep's second rows not scaled) on TestPosv; racecheck and memcheck on posv_warp
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu31; CS=/usr/local/cuda/bin/compute-sanitizer
cd $R/internal/gpu/posv
timeout 60 $B/posv-mutant.test -test.run 'TestPosv$/float32/Lower/n=(33|64)$' -test.v > $L/c5-posv-mutant.log 2>&1; echo "rc $?" >> $L/c5-posv-mutant.log
timeout 110 $CS --tool racecheck $B/posv.test -test.run 'TestPosv$/float32/Lower/n=(49|64)$' > $L/c5-racecheck.log 2>&1; echo "rc $?" >> $L/c5-racecheck.log
timeout 80 $CS --tool memcheck $B/posv.test -test.run 'TestPosv$/float32/Lower/n=(49|64)$' > $L/c5-memcheck.log 2>&1; echo "rc $?" >> $L/c5-memcheck.log
cd $OUT && tar cJf c5.tar.xz logs && rm -rf logs
