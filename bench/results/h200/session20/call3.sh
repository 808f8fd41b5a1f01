#!/usr/bin/env bash
# Session 20 call 3: the branch with ldsm2 in blocked.cu (SplitTile's ldmatrix fragments, the diagonal task's
# mul_pair): the GPU tests of the split kernels (whole-matrix at both occupancies, and the blocked driver's
# panels), then the blocked driver's tiled panels from this binary and from main's (batchlas-main) on the
# suite's panel cases.
set -u
R=$PWD
tar xJf build/gpu3.txz -C build && B=$R/build/gpu3
mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage tests
(cd internal/gpu/cholblocked && timeout 300 $B/blocked.test -test.run 'TestKernelResources|TestPotrfTiled|TestAccuracyTiled' -test.v > $OUT/tiled4.log 2>&1; echo "tiled rc $?" >> $OUT/rc4.txt) &
(cd internal/gpu/cholblocked && timeout 300 $B/blocked.test -test.run 'TestPotrf$/float32' -test.v > $OUT/potrf4.log 2>&1; echo "potrf rc $?" >> $OUT/rc4.txt) &
(cd internal/gpu/cholblocked && timeout 150 $B/blocked.test -test.run 'TestConformanceTiled/float32' -test.v > $OUT/conf4.log 2>&1; echo "conf rc $?" >> $OUT/rc4.txt
 timeout 150 $B/blocked.test -test.run 'TestConformance$/float32' -test.v >> $OUT/conf4.log 2>&1; echo "conf2 rc $?" >> $OUT/rc4.txt) &
(timeout 150 $B/root.test -test.run 'TestPotrfTensorFailures' -test.v > $OUT/root4.log 2>&1; echo "root rc $?" >> $OUT/rc4.txt
 timeout 150 $B/root.test -test.run 'TestRouteGPUCandidates/float32' -test.v >> $OUT/root4.log 2>&1; echo "root2 rc $?" >> $OUT/rc4.txt) &
wait
cat $OUT/rc4.txt
for f in tiled4 potrf4 conf4 root4; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|    --- FAIL' $OUT/$f.log | head -8; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<float.*(registers|local)' $OUT/tiled4.log | cut -c1-140 | head -12
stage panels
timeout 100 $B/batchlas bench -suite cholesky-gpumode -cases 'n=(4096/batch=2|8192/batch=1|16384/batch=1)([^0-9]|$)' \
  -arms vendor:transposed,native:blocked:panels=tiled:prec=tf32x3 > $OUT/panels-branch.log 2>&1; echo "panels rc $?"; tail -7 $OUT/panels-branch.log
timeout 100 $B/batchlas-main bench -suite cholesky-gpumode -cases 'n=(4096/batch=2|8192/batch=1|16384/batch=1)([^0-9]|$)' \
  -arms vendor:transposed,native:blocked:panels=tiled:prec=tf32x3 > $OUT/panels-main.log 2>&1; echo "panels-main rc $?"; tail -7 $OUT/panels-main.log
stage done
