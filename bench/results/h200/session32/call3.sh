#!/usr/bin/env bash
# Session 32 call 3: on call 2's A (the solve's load of X_c issued with that of info), variants of the diagonal
# task's epilogue and of the split loop's stages (build/c32/v2.txz: each variant's blocked.cu, blocked.test and
# batchlas, built here; the 4-stage builds with the Go side changed to match, build/c32/four.py):
#   A    call 2's A;   BL   A, and the diagonal task stores X_j and info, publishes its flag, and only then stores
#        L(j, j), which no task reads (every chol_tiled);   A4, BL4   the same with four split stages in the kernels
#        for one block a multiprocessor (split_stages; their dynamic shared memory 36864 B, opted in past 48 KiB).
#  1. lab/variants.py: CUDA 13's registers and frames of the eight float one-block kernels, head (main) and the clean
#     variants timed interleaved, BEST the fastest clean one at the first case (Upper 3xTF32 n = 4096, one matrix);
#  2. with BEST: TestKernelResources, TestPrefixTasks, TestSplitStages; TestPotrfTiled, TestConformanceTiled,
#     TestAccuracyTiled -short; TestPotrf -short; memcheck on TestPotrfTiled float32 3xTF32 Upper n = 641;
#  3. main's batchlas (build/gpu32) on the suite's few-matrix cases, then BEST's on the whole suite, three arms.
set -u
R=$PWD; L=/tmp/s32/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31 kc31c kc32a kc32b; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
tar xJf build/c32/v2.txz -C build/c32; touch /tmp/s32/start3; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s32c3.tar.xz -C /tmp/s32 logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; CUBINS=/tmp VDIR=build/c32/v2 HEAD_CU=build/c32/blocked-head.cu run lab 150 python3 bench/results/h200/session32/lab/variants.py
V=$(awk '/^BEST/{print $2}' $L/lab.log)
echo "chosen: ${V:-none}" >> $L/stages.txt
CASES='n=(512/batch=16|1024/batch=4|2048/batch=2|4096/batch=[12]|8192/batch=1)$'
if [ -n "$V" ]; then
  B=$R/build/c32/v2/$V
  cd internal/gpu/cholblocked
  step resources; run resources 130 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages' -test.v
  step tiled; run tiled 120 $B/blocked.test -test.run 'TestPotrfTiled$|TestConformanceTiled|TestAccuracyTiled' -test.short -test.v
  step potrf; run potrf 60 $B/blocked.test -test.run 'TestPotrf$' -test.short -test.v
  step memcheck; run memcheck 50 $CS --tool memcheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
    -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=641$'
  cd $R
  step suite-head; run suite-head 60 build/gpu32/batchlas bench -suite cholesky-gpumode -cases "$CASES" -arms vendor,vendor:transposed,auto
  step suite; run suite 200 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
fi
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s32/start3 | tar cJf $OUT/kc32c.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log $L/tiled.log $L/potrf.log 2>/dev/null | head
grep -hE " [1-9][0-9]* B local" $L/resources.log 2>/dev/null | head
grep -E "CLEAN|BEST|: head" $L/lab.log
grep -hE "^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+ " $L/tiled.log 2>/dev/null | head -20; grep -h "SUMMARY" $L/memcheck.log
grep -E "^\| potrf" $L/suite-head.log; grep -E "^\| (potrf|geomean)" $L/suite.log
