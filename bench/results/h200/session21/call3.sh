#!/usr/bin/env bash
# Session 21 call 3 (branch chain): the chain kernels' resources, TestPotrfTiled (chain against ChainShared, one and
# three blocks, bit for bit), the tiled conformance suite, TestTiming's tiled arms with and without the chain side
# by side with cuSOLVER, then compute-sanitizer memcheck and racecheck on a short TestPotrfTiled/float32.
set -u
R=$PWD; tar xJf build/gpu5.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
cd internal/gpu/cholblocked
B=$R/build/gpu5/blocked.test
timeout 200 $B -test.run 'TestKernelResources|TestPotrfTiled$|TestConformanceTiled|TestTiledArguments|TestUseChain' -test.v > $OUT/check.log 2>&1; echo "check rc $?"
grep -E "^(--- FAIL|FAIL|ok|PASS)|worst|Error|error|chol_tiled<float, 32, 128, (true|false), (true|false), false, 1>" $OUT/check.log | head -40
timeout 200 $B -test.run 'TestTiming$' -blocked.timing -blocked.cases 512x16,1024x4,2048x2,4096x1,2048x8 -blocked.arms none > $OUT/timing.log 2>&1; echo "timing rc $?"
grep -E "^\s+n[0-9]+ b" $OUT/timing.log | tail -5 | cut -c1-700
CS=/usr/local/cuda/bin/compute-sanitizer
timeout 90 $CS --tool memcheck $B -test.run 'TestPotrfTiled/float32$|TestPotrfTiled/float32/3xTF32$' -test.short > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -3 $OUT/memcheck.log
timeout 150 $CS --tool racecheck $B -test.run 'TestPotrfTiled/float32/3xTF32$' -test.short > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -3 $OUT/racecheck.log
