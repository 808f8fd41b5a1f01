#!/usr/bin/env bash
# Session 63, call 4: the landed potrf_reg (6c0ad3d, call 3's steps.patch with its comments), built here by
#   scripts/device-build build/gpu/s63q potrf:./internal/gpu/potrf
# carry ["build/gpu/s63q"]. racecheck on three of TestPotrf's cases (call 3's sixteen ran past 60 s), the potrf
# package's tests once more on this build (TestPotrfWarp and the CTA tests too: their kernels compile after
# potrf.cu), TestPotrfTiming (Lower n = 8, 16, 32 against cuSOLVER), then the cholesky-gpumode suite whole unless
# SUITE=0 (the device time left may not hold it).
. scripts/device-steps.sh
record "$PWD/build/gpu/s63q"
P=$PWD/internal/gpu/potrf CS=/usr/local/cuda/bin/compute-sanitizer
step racecheck 150 "$P" $CS --tool racecheck --error-exitcode 9 "$B/potrf.test" -test.run 'TestPotrf$/(float32/(Upper|Lower)/n=32|complex128/Upper/n=31)$'
step tests 150 "$P" "$B/potrf.test" -test.run 'TestKernelResources|TestPotrf$|TestPotrfTinyPivots|TestConformance|TestChecks|TestPotrfWarp|TestWarpConformance|TestPotrfCTA|TestCTAConformance' -test.v
step timing 60 "$P" "$B/potrf.test" -test.run 'TestPotrfTiming$' -test.v
stop_if_failed racecheck tests
[ "${SUITE:-1}" = 1 ] && step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -hE "RACECHECK SUMMARY|ERROR SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test" "$L"/racecheck.log "$L"/tests.log
grep -E "µs|GB/s" "$L/timing.log" | head -20
[ -f "$L/suite.log" ] && grep -E "^\| (potrf|geomean)" "$L/suite.log"
exit 0
