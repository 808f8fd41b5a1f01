#!/usr/bin/env bash
# Session 18 call 5: resources and times of the e1 form (res.py), then its tests and the kernel listing, then the suite if they pass (they did not).
set -u
R=$PWD; B=$R/build/gpu1
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage res; timeout 120 python3 build/lab/res.py > $OUT/res.log 2>&1; echo rc $?; cut -c1-500 $OUT/res.log
stage tests
(cd internal/gpu/cholblocked && timeout 300 $B/blocked.test -test.run 'TestKernelResources|TestPotrf$|TestPotrfTiled|TestAccuracyTiled|TestConformance' -test.v > $OUT/blocked.log 2>&1; echo "blocked rc $?" >> $OUT/rc.txt) &
(timeout 300 $B/root.test -test.run 'TestPotrfTensorFailures|TestConformanceCUDA|TestRouteGPUCandidates' -test.v -potrf.lowrank 4096,8192 > $OUT/root.log 2>&1; echo "root rc $?" >> $OUT/rc.txt) &
(timeout 300 $B/batchlas kernels > $OUT/kernels.txt 2> $OUT/kernels.err; echo "kernels rc $?" >> $OUT/rc.txt) &
wait
cat $OUT/rc.txt
for f in blocked root; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|    --- FAIL|local memory' $OUT/$f.log | head -20; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<float' $OUT/kernels.txt | cut -c1-100
if grep -q "blocked rc 0" $OUT/rc.txt; then
  stage suite; timeout 260 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,native,auto > $OUT/suite.log 2>&1; echo rc $?; tail -22 $OUT/suite.log
fi
stage done
