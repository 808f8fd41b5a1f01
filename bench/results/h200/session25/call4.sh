#!/usr/bin/env bash
# Session 25 call 4: posv_warp and potrs_warp for Upper too (build/gpu53: the working tree of the
# landing commit, with build/lab25/zz_upper_test.go.txt added to the posv package as
# zz_upper_test.go). Each step re-packs the logs, so a call cut short still brings back what ran.
set -u
R=$PWD; L=/tmp/c4/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu53; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/c4.tar.xz -C /tmp/c4 logs; }
step() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
cd $R/internal/gpu/posv
step check; timeout 200 $B/posv.test -test.skip Timing -test.v > $L/posv-check.log 2>&1; echo "rc $?" >> $L/posv-check.log; pack
cd $R/internal/gpu/potrf
step resources; timeout 150 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/resources.log 2>&1; echo "rc $?" >> $L/resources.log; pack
cd $R/internal/gpu/posv
step timing; timeout 60 $B/posv.test -test.run 'TestPosvTiming/float32/(Upper/)?n=(48|64)' -test.v > $L/posv-timing.log 2>&1; pack
step potrs; timeout 60 $B/posv.test -test.run 'TestZZPotrsTriangles' -test.v > $L/potrs-triangles.log 2>&1; pack
step racecheck; timeout 80 $CS --tool racecheck $B/posv.test -test.run 'TestPosv$/float32/Upper/n=(33|48|64)(/vectors)?$' > $L/racecheck.log 2>&1; echo "rc $?" >> $L/racecheck.log; pack
step memcheck; timeout 80 $CS --tool memcheck $B/posv.test -test.run 'TestPosv$/float32/Upper/n=(33|48|64)(/vectors)?$' > $L/memcheck.log 2>&1; echo "rc $?" >> $L/memcheck.log; pack
step done; pack
