#!/usr/bin/env bash
# Session 33 call 3: Upper's 16-byte tile copies (wide) and the four-block split kernels' row pairs (pairs), the tree
# as built here into build/gpu33a (blocked.test, batchlas, the tree's blocked.cu and main's):
#  1. lab/pairs.py: CUDA 13's registers and frames, head / wide / pairs timed interleaved, every result checked and its
#     bits compared with head's;
#  2. TestKernelResources, TestSplitStages, TestPrefixTasks; TestPotrfTiled (float32, all sizes), TestConformanceTiled
#     and TestAccuracyTiled (-short);
#  3. memcheck on TestPotrfTiled float32 3xTF32 occ=4 Upper -short (row pairs, wide copies where lda allows);
#  4. the suite's cases that take the tiled kernels, three arms.
set -u
R=$PWD; L=/tmp/s33/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31 kc31c kc32a kc32b kc32c; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
touch /tmp/s33/start3; B=$R/build/gpu33a; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s33c3.tar.xz -C /tmp/s33 logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; CUBINS=/tmp HEAD_CU=$B/blocked-head.cu TREE_CU=$B/blocked.cu REPS=7 \
  CASES=Ux1x8192x1x4,Lx1x8192x1x4,Ux1x4096x1x1,Ux1x4096x1x4,Ux1x4096x2x4,Ux1x2048x8x4,Lx1x2048x8x4,Ux1x1024x60x4,Ux1x512x640x4,Ux1x2048x2x1 \
  run lab 150 python3 bench/results/h200/session33/lab/pairs.py
cd internal/gpu/cholblocked
step resources; run resources 130 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages' -test.v
step tiled; run tiled 150 $B/blocked.test -test.run 'TestPotrfTiled/^float32|TestConformanceTiled|TestAccuracyTiled' -test.v
step memcheck; run memcheck 60 $CS --tool memcheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
  -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=4$/^Upper$'
cd $R
step suite; run suite 150 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto \
  -cases 'n=(512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=[12]|8192/batch=1)$'
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s33/start3 | tar cJf $OUT/kc33a.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log $L/tiled.log 2>/dev/null | head
grep -hE " [1-9][0-9]* B local|chol_tiled<float, 32, 128, (true|false), true, false, 4>" $L/resources.log 2>/dev/null | head
grep -E "regs|: head" $L/lab.log | grep -v "false, false, .*1>"
grep -hE "^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+ " $L/tiled.log 2>/dev/null | head -20; grep -h "SUMMARY\|ERROR SUMMARY" $L/memcheck.log
grep -E "^\| (potrf|geomean)" $L/suite.log
