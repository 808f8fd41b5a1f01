#!/usr/bin/env bash
# Session 57 call 7 (carry ["build/gpu/s57h", "build/gpu/s57o"]): lab/overlap.py's factor_rows in the tree
# (overlap.patch: the inverse in warp 1 behind warp 0's factor; warps 2 and 3 store tile (j, j − 1)).
# build/gpu/s57h = a7e50e5's CLI, build/gpu/s57o = a7e50e5 + overlap.patch (cholblocked tests, CLI).
#  1. cholblocked's tiled and resource tests with the patch, and racecheck on two of TestPotrfTiled's orders
#     (3xTF32 Upper and exact Lower, n = 97); the call stops if one fails;
#  2. the cholesky-gpumode suite's chol_tiled cases and n16384 (the blocked driver's tiled panels) by both CLIs,
#     the auto arm, in turns.
. scripts/device-steps.sh
record "$PWD/build/gpu/s57o"
H=$PWD/build/gpu/s57h
step tests 200 "$PWD/internal/gpu/cholblocked" "$B/cholblocked.test" -test.v -test.short \
	-test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
CS=/usr/local/cuda/bin/compute-sanitizer
step race-split-U 60 "$PWD/internal/gpu/cholblocked" $CS --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
	-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=97$'
step race-exact-L 60 "$PWD/internal/gpu/cholblocked" $CS --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
	-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^exact$/^Lower$/^n=97$'
stop_if_failed tests race-split-U race-exact-L
CASES='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1|16384/batch=1)$'
for r in 1 2; do
	step suite-head-$r 80 "$PWD" "$H/batchlas" bench -suite cholesky-gpumode -arms auto -cases "$CASES" -count 3 -time 300ms
	step suite-cand-$r 80 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases "$CASES" -count 3 -time 300ms
done
cat "$L/gpu.txt" "$L/stages.txt"; grep -H "^rc " "$L"/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" "$L/tests.log" | head -12
grep -h "SUMMARY\|^ok\|^PASS\|^FAIL\|hazard" "$L"/race-*.log | tail -6
for f in "$L"/suite-*.log; do echo "== $f"; grep -E "^\| " "$f"; done
