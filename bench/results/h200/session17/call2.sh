#!/usr/bin/env bash
# Suite on an idle GPU, the factor lab, then the tests and the kernel listing in parallel.
set -u
R=$PWD; B=$R/build/gpu1
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage suite; timeout 230 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,native,auto > $OUT/suite.log 2>&1; echo rc $?; tail -19 $OUT/suite.log
stage lab; timeout 60 python3 build/lab/fb.py . > $OUT/lab.log 2>&1; echo rc $?; grep -E '^(new|old)_f +spd +w=32|same-as-old.*(w=32|w=17)|^RES chol_tiled<float' $OUT/lab.log
stage tests
(cd internal/gpu/cholblocked && timeout 300 $B/blocked.test -test.run 'TestPotrf$/float32|TestPotrfTiled|TestAccuracy$|TestAccuracyTiled|TestConformance|TestKernelResources' -test.v > $OUT/blocked.log 2>&1; echo "blocked rc $?" >> $OUT/rc.txt) &
(timeout 300 $B/root.test -test.run 'TestPotrfTensorFailures|TestConformanceCUDA|TestRouteGPUCandidates' -test.v -potrf.lowrank 4096,8192 > $OUT/root.log 2>&1; echo "root rc $?" >> $OUT/rc.txt) &
(timeout 300 $B/batchlas kernels > $OUT/kernels.txt 2> $OUT/kernels.err; echo "kernels rc $?" >> $OUT/rc.txt) &
wait
cat $OUT/rc.txt
for f in blocked root; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic' $OUT/$f.log | head -20; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<float|chol_diag<float' $OUT/kernels.txt | cut -c1-100
stage done
