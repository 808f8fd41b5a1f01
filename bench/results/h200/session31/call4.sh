#!/usr/bin/env bash
# Session 31 call 4: four more forms of the prefix tasks, now in the float split kernels for one block a multiprocessor
# only, each built here into build/c4/v31.txz (blocked.test, batchlas, nostore/blocked.test whose prefix tasks store
# no sums), with factor_rows<NT, BOUND> (BOUND = PRE): a __syncwarp in its inverse at k4 = 16 (B16) or every 8
# columns (B8), which bounds how far ptxas hoists the reads of L there (NVRTC 12.4 gave B16's split kernels 238
# registers instead of 255). B16 and B8 on call 3's SK4, K8 on SK, R8 is B8 with the bound of the steps in a
# register instead of shared memory.
#  1. lab/variants.py: each form's float one-block kernels under CUDA 13 (registers, stack frame); the clean ones
#     timed against head; the fastest clean one is used below (BEST);
#  2. with it: TestKernelResources and TestPrefixTasks; TestPotrfTiled and TestConformanceTiled; the guard (its
#     nostore build must fail TestPotrfTiled float32/3xTF32 n = 609, 641); the suite's few-matrix cases, three arms.
set -u
R=$PWD; L=/tmp/s31/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache 2>/dev/null; tar xJf build/kc31.txz -C build/kcache 2>/dev/null
tar xJf build/c4/v31.txz -C build/c4; touch /tmp/s31/start4
pack() { tar cJf $OUT/s31c4.tar.xz -C /tmp/s31 logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; CUBINS=/tmp VDIR=build/c4/v HEAD_CU=build/c4/blocked-head.cu run lab 150 python3 bench/results/h200/session31/lab/variants.py
V=$(awk '/^BEST/{print $2}' $L/lab.log)
echo "chosen: ${V:-none}" >> $L/stages.txt
if [ -n "$V" ]; then
  B=$R/build/c4/v/$V
  cd internal/gpu/cholblocked
  step resources; run resources 120 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks' -test.v
  step tiled; run tiled 260 $B/blocked.test -test.run 'TestPotrfTiled$|TestConformanceTiled' -test.v
  step guard; run guard 60 $B/nostore/blocked.test -test.run 'TestPotrfTiled/^float32$/^3xTF32$/.*/^n=(609|641)$' -test.v
  cd $R
  step suite; run suite 100 $B/batchlas bench -suite cholesky-gpumode -cases 'n=(512/batch=16|1024/batch=4|2048/batch=2|4096/batch=[12]|8192/batch=1)$' -arms vendor,vendor:transposed,auto
fi
for f in /tmp/lab20-*-libnvrtc.so.cubin; do
  n=$(basename $f .cubin); /usr/local/cuda/bin/cuobjdump -sass $f | grep -n -B12 -A2 "STL" | head -80 > $L/sass-$n.txt
done
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s31/start4 | tar cJf $OUT/kc31c.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log $L/tiled.log 2>/dev/null | head
grep -hE " [1-9][0-9]* B local" $L/resources.log 2>/dev/null | head
grep -vE "^\s*$" $L/lab.log | tail -40
grep -hE "^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+(/3xTF32)?(/occ=4)? |worst" $L/tiled.log 2>/dev/null | head -40
grep -hE "^(--- FAIL|    --- FAIL|ok|PASS|FAIL)" $L/guard.log 2>/dev/null | head -6; tail -9 $L/suite.log 2>/dev/null
