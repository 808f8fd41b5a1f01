#!/usr/bin/env bash
# Session 22 call 2: the split loop's buffers in dynamic shared memory (3, or 4 for four blocks a multiprocessor):
# kernel resources, TestPotrfTiled, the tiled conformance suite and TestPotrf (tiled panels), TestTiming's tiled arms,
# then racecheck on one TestPotrfTiled case for the split kernels of one and four blocks and float64.
set -u
R=$PWD; tar xJf build/gpu8.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
cd internal/gpu/cholblocked
B=$R/build/gpu8/blocked.test
timeout 240 $B -test.run 'TestKernelResources|TestPotrfTiled$|TestConformanceTiled|TestTiledArguments|TestPotrf$' -test.v > $OUT/check.log 2>&1; echo "check rc $?"
grep -E "^(--- FAIL|FAIL|ok|PASS)|worst|Error|error|chol_tiled<float" $OUT/check.log | head -40
timeout 150 $B -test.run 'TestTiming$' -test.v -blocked.cases 512x16,1024x4,2048x2,4096x1,2048x8,4096x2,8192x1 -blocked.arms none -blocked.tiledmax 8192 > $OUT/timing.log 2>&1; echo "timing rc $?"
grep -E "^\s+n[0-9]+ b[0-9]+ " $OUT/timing.log | tail -7 | cut -c1-900
CS=/usr/local/cuda/bin/compute-sanitizer
for c in '^float32$/^3xTF32$/^Lower$' '^float32$/^3xTF32$/^occ=4$/^Lower$' '^float64$/^Lower$'; do
  f=$(echo "$c" | tr -dc 'a-zA-Z0-9=')
  timeout 90 $CS --tool racecheck $B -test.run "TestPotrfTiled/$c/^n=97\$" -test.v > $OUT/racecheck-$f.log 2>&1; echo "racecheck $c rc $?"; grep -E "RACECHECK SUMMARY|^(--- |ok|PASS|FAIL)" $OUT/racecheck-$f.log | tail -3
done
cd $R; tar cJf $OUT/kc6.txz -C build/kcache . 2>/dev/null; ls -la $OUT
