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
# As scripts/device-steps.sh's tiled_checks, but for exact Lower this call named a subtest ^exact$ that
# TestPotrfTiled does not have (its exact orders have no precision level), so that racecheck ran no kernel there;
# call 8 corrected it.
CB=$PWD/internal/gpu/cholblocked CS=/usr/local/cuda/bin/compute-sanitizer
step tests 200 "$CB" "$B/cholblocked.test" -test.v -test.short \
	-test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
step race-split-U 60 "$CB" $CS --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
	-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=97$'
step race-exact-L 60 "$CB" $CS --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
	-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^exact$/^Lower$/^n=97$'
stop_if_failed tests race-split-U race-exact-L
tiled_turns "$PWD/build/gpu/s57h"
tiled_report
