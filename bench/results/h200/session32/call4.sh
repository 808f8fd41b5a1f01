#!/usr/bin/env bash
# Session 32 call 4: the checks on the code as committed (build/gpu32b: blocked.test and batchlas built here from the
# tree; blocked.cu differs from call 3's BL in comments only).
#  1. TestKernelResources, TestPrefixTasks, TestSplitStages;
#  2. TestPotrfTiled and TestConformanceTiled (all sizes), TestAccuracyTiled, TestPotrf -short;
#  3. memcheck on TestPotrfTiled float32 3xTF32 Upper and Lower n = 641 -short;
#  4. the suite's few-matrix cases, three arms.
set -u
R=$PWD; L=/tmp/s32/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31 kc31c kc32a kc32b kc32c; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
B=$R/build/gpu32b; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s32c4.tar.xz -C /tmp/s32 logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/cholblocked
step resources; run resources 130 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages' -test.v
step tiled; run tiled 150 $B/blocked.test -test.run 'TestPotrfTiled$|TestConformanceTiled|TestAccuracyTiled' -test.v
step potrf; run potrf 60 $B/blocked.test -test.run 'TestPotrf$' -test.short -test.v
step memcheck; run memcheck 60 $CS --tool memcheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
  -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^(Upper|Lower)$/^n=641$'
cd $R
step suite; run suite 70 $B/batchlas bench -suite cholesky-gpumode -cases 'n=(512/batch=16|1024/batch=4|2048/batch=2|4096/batch=[12]|8192/batch=1)$' -arms vendor,vendor:transposed,auto
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log $L/tiled.log $L/potrf.log | head
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -hE "^--- (PASS|FAIL)|^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+ " $L/tiled.log $L/potrf.log
grep -h "SUMMARY" $L/memcheck.log; grep -E "^\| potrf" $L/suite.log
