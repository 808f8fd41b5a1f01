#!/usr/bin/env bash
# Session 22 call 3 (main + the split loop's buffers in dynamic shared memory): TestPotrfTiled and the tiled
# conformance suite, memcheck on the four-block split kernel (four buffers), then the whole cholesky-gpumode suite.
set -u
R=$PWD; tar xJf build/gpu8.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
cd internal/gpu/cholblocked
B=$R/build/gpu8/blocked.test
timeout 170 $B -test.run 'TestPotrfTiled$|TestConformanceTiled' -test.v > $OUT/tiled.log 2>&1; echo "tiled rc $?"
grep -E "^(--- FAIL|FAIL|ok|PASS)|^    --- (PASS|FAIL): Test[A-Za-z]+/[a-z0-9]+(/3xTF32)?(/occ=4)? " $OUT/tiled.log | head -30
CS=/usr/local/cuda/bin/compute-sanitizer
timeout 50 $CS --tool memcheck $B -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=4$' -test.short > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -3 $OUT/memcheck.log
cd $R
timeout 335 build/gpu8/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto > $OUT/suite.log 2>&1; echo "suite rc $?"; tail -19 $OUT/suite.log
