#!/usr/bin/env bash
# Prepared in session 63 for the next device session, built by
#   scripts/device-build build/gpu/s64 potrf:./internal/gpu/potrf        (the committed tree)
# carry ["build/gpu/s64"], kind nvidia-h200; BUDGET in the environment if less device time is left.
#  Every card: what call 4 could not run (no device lent after call 3): racecheck on three of TestPotrf's cases with
#  the landed potrf_reg (6c0ad3d), the potrf package's tests with the warp and CTA tiers, TestPotrfTiming.
#  On an H200 (none lent in sessions 57 to 63): then the cholesky-gpumode suite whole (the H200's last: session
#  55's 602.5 µs; native:tiny's n32 b4096 12 % faster on the H100 since), and the float32 rows of n = 32 (native:tiny
#  against the rest, faster since 6c0ad3d), 4096, 2048 and 8192 (the three-block candidate; the four-block kernels
#  changed in session 61), to the end of the budget; merge with scripts/merge-tuned (whole orders).
. scripts/device-steps.sh
record "$PWD/build/gpu/s64"
P=$PWD/internal/gpu/potrf CS=/usr/local/cuda/bin/compute-sanitizer
step racecheck 150 "$P" $CS --tool racecheck --error-exitcode 9 "$B/potrf.test" -test.run 'TestPotrf$/(float32/(Upper|Lower)/n=32|complex128/Upper/n=31)$'
step tests 150 "$P" "$B/potrf.test" -test.run 'TestKernelResources|TestPotrf$|TestPotrfTinyPivots|TestConformance|TestChecks|TestPotrfWarp|TestWarpConformance|TestPotrfCTA|TestCTAConformance' -test.v
step timing 60 "$P" "$B/potrf.test" -test.run 'TestPotrfTiming$' -test.v
stop_if_failed racecheck tests
h200_only
step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
tune_gpumode float32 32 4096 2048 8192
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -hE "RACECHECK SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test" "$L"/racecheck.log "$L"/tests.log
grep -E "µs|GB/s" "$L/timing.log" | head -20
[ -f "$L/suite.log" ] && grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do [ -f "$f" ] && grep -E "^[LU] " "$f" | cut -c1-110; done
exit 0
