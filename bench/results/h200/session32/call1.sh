#!/usr/bin/env bash
# Session 32 call 1: the checks session 31 could not run on the code it landed (main at a735d87, built here into
# build/gpu32: blocked.test, batchlas), then the whole suite.
#  1. TestKernelResources and TestPrefixTasks (every cholblocked kernel, 0 B of local memory);
#  2. TestPotrfTiled and TestConformanceTiled (all four types, both triangles);
#  3. memcheck and racecheck on TestPotrfTiled float32 3xTF32 (Upper and Lower) n = 641, -short: the split kernels
#     with prefix tasks (n >= 609);
#  4. the cholesky-gpumode suite, every case, arms vendor, vendor:transposed and auto.
set -u
R=$PWD; L=/tmp/s32/logs1; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31 kc31c; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
touch /tmp/s32/start1; B=$R/build/gpu32; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s32c1.tar.xz -C /tmp/s32 logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/cholblocked
step resources; run resources 150 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks' -test.v
step tiled; run tiled 200 $B/blocked.test -test.run 'TestPotrfTiled$|TestConformanceTiled' -test.v
for tool in memcheck racecheck; do
  step $tool; run $tool 60 $CS --tool $tool --error-exitcode 9 $B/blocked.test -test.short -test.v \
    -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^(Upper|Lower)$/^n=641$'
done
cd $R
step suite; run suite 170 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s32/start1 | tar cJf $OUT/kc32a.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log $L/tiled.log | head
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -hE "^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+ " $L/tiled.log
grep -h "SUMMARY\|ok\|PASS$\|FAIL$" $L/memcheck.log $L/racecheck.log | head; tail -24 $L/suite.log
