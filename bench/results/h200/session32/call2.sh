#!/usr/bin/env bash
# Session 32 call 2: the hand-over from one diagonal tile to the next. Variants of blocked.cu (build/c32/v32.txz: each
# variant's blocked.cu, and for all but AB4 its blocked.test and batchlas built here, for the XROW ones also
# guard/blocked.test whose reader of X keeps the column-major layout):
#   A     the solve's load of X_c issued with the load of info, no longer behind the branch on it (every chol_tiled);
#   AB    A, and XROW in every float kernel for one block a multiprocessor: factor_rows writes X_j to the workspace,
#         row-major, as it forms it, and the diagonal tile's flag goes out before L(j, j) is stored;
#   ABnp  AB without the panel kernels; ABsp  AB in the split whole-matrix kernels only;
#   AB4   AB with four split stages in the kernels for one block (timed only: it needs Go changes).
#  1. lab/variants.py: CUDA 13's registers and frames of the eight float one-block kernels per variant; head and the
#     clean ones timed interleaved; BEST the fastest clean one but AB4 at the first case;
#  2. with BEST: TestKernelResources, TestPrefixTasks, TestSplitStages; TestPotrfTiled, TestConformanceTiled; TestPotrf
#     -short (the blocked driver, tiled panels among its options); the guard (must fail TestPotrfTiled);
#  3. the suite's few-matrix cases, main's batchlas (build/gpu32) then BEST's, three arms;
#  4. racecheck on TestPotrfTiled float32 3xTF32 Upper n = 641 -short with what time is left.
set -u
R=$PWD; L=/tmp/s32/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31 kc31c kc32a; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
tar xJf build/c32/v32.txz -C build/c32; touch /tmp/s32/start2; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s32c2.tar.xz -C /tmp/s32 logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; CUBINS=/tmp NOT_BEST=AB4 VDIR=build/c32/v HEAD_CU=build/c32/blocked-head.cu run lab 150 python3 bench/results/h200/session32/lab/variants.py
V=$(awk '/^BEST/{print $2}' $L/lab.log)
echo "chosen: ${V:-none}" >> $L/stages.txt
CASES='n=(512/batch=16|1024/batch=4|2048/batch=2|4096/batch=[12]|8192/batch=1)$'
if [ -n "$V" ]; then
  B=$R/build/c32/v/$V
  cd internal/gpu/cholblocked
  step resources; run resources 130 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages' -test.v
  step tiled; run tiled 120 $B/blocked.test -test.run 'TestPotrfTiled$|TestConformanceTiled' -test.v
  step potrf; run potrf 90 $B/blocked.test -test.run 'TestPotrf$' -test.short -test.v
  [ -x $B/guard/blocked.test ] && { step guard; run guard 40 $B/guard/blocked.test -test.run 'TestPotrfTiled/^float32$/.*/^n=(65|641)$' -test.short -test.v; }
  cd $R
  step suite-head; run suite-head 70 build/gpu32/batchlas bench -suite cholesky-gpumode -cases "$CASES" -arms vendor,vendor:transposed,auto
  step suite; run suite 70 $B/batchlas bench -suite cholesky-gpumode -cases "$CASES" -arms vendor,vendor:transposed,auto
  left=$((575 - SECONDS))
  if [ $left -gt 30 ]; then
    cd internal/gpu/cholblocked
    step racecheck; run racecheck $left $CS --tool racecheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
      -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=641$'
    cd $R
  fi
fi
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s32/start2 | tar cJf $OUT/kc32b.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log $L/tiled.log $L/potrf.log 2>/dev/null | head
grep -hE " [1-9][0-9]* B local" $L/resources.log 2>/dev/null | head
grep -vE "^\s*$" $L/lab.log | tail -52
grep -hE "^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+ " $L/tiled.log 2>/dev/null | head -20
grep -hE "^(--- FAIL|    --- FAIL|ok|PASS|FAIL)" $L/guard.log 2>/dev/null | head -6; grep -h "SUMMARY" $L/racecheck.log 2>/dev/null
for s in suite-head suite; do grep -E "^\| potrf" $L/$s.log 2>/dev/null; done
