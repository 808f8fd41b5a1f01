#!/usr/bin/env bash
# Session 58 call 3 (carry ["build/gpu/s58", "build/gpu/s58r"]): call 2 again with rsq.patch as it is now: factor_rows
# takes factor_step_block's EAGER rsqrt in the 3xTF32 kernels only (call 2's form, eager everywhere, failed
# TestKernelResources: 8-80 B of local memory in the exact one-block kernels and the four-block Upper 3xTF32 one).
# build/gpu/s58 = 45376e5's CLI, build/gpu/s58r = 45376e5 + rsq.patch (cholblocked tests, CLI).
#  1. cholblocked's tiled and resource tests with the patch, and racecheck on two of TestPotrfTiled's orders;
#     the call stops if one fails;
#  2. the cholesky-gpumode suite's chol_tiled cases (one-block: factor_rows; four-block: factor_quarters) and
#     n16384 by both CLIs, the auto arm, in turns; 3. the suite whole by the candidate.
. scripts/device-steps.sh
record "$PWD/build/gpu/s58r"
H=$PWD/build/gpu/s58
step tests 200 "$PWD/internal/gpu/cholblocked" "$B/cholblocked.test" -test.v -test.short \
	-test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
CS=/usr/local/cuda/bin/compute-sanitizer
step race-split-U 60 "$PWD/internal/gpu/cholblocked" $CS --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
	-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=97$'
step race-exact-L 60 "$PWD/internal/gpu/cholblocked" $CS --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
	-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^Lower$/^n=97$'
stop_if_failed tests race-split-U race-exact-L
CASES='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1|16384/batch=1)$'
for r in 1 2; do
	step suite-head-$r 80 "$PWD" "$H/batchlas" bench -suite cholesky-gpumode -arms auto -cases "$CASES" -count 3 -time 300ms
	step suite-cand-$r 80 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases "$CASES" -count 3 -time 300ms
done
step suite-whole 170 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt"; grep -H "^rc " "$L"/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" "$L/tests.log" | head -12
grep -h "SUMMARY\|^ok\|^PASS\|^FAIL\|hazard" "$L"/race-*.log | tail -6
for f in "$L"/suite-*.log; do echo "== $f"; grep -E "^\| " "$f"; done
