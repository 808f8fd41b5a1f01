#!/usr/bin/env bash
# Session 70's call 2, one part by card (call_part). Built here at 1aa54a2 with eager2.patch (session 69's eager
# pivots in potrf_reg and potrf_cta's pivot_scale only: call 1 measured potrf_warp's float kernels slower with
# them at saturating batches) by
#   scripts/device-build build/gpu/s70f -p bench/results/h200/session70/eager2.patch posv:./internal/gpu/posv potrf:./internal/gpu/potrf
#   tar -C build/gpu -cJf build/gpu/s70f.tar.xz s70f
# carry ["build/gpu/s70f.tar.xz"].
#  - suite (an H200): the cholesky-gpumode suite whole by s70f against both vendor arms, then s70f's potrf tests
#    (every one but the timings) and posv's.
#  - any other card: s70f's potrf tests, posv's, then racecheck on TestPotrf's float32 and complex128 cases
#    n = 31 and 32 (potrf_race).
tar -C build/gpu -xJf build/gpu/s70f.tar.xz
. scripts/device-steps.sh
record "$PWD/build/gpu/s70f"
part=$(call_part other)
[ "$part" = suite ] && gpumode_suite
step tests 300 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.skip 'Timing$|^TestRegVariants$'
step posv-tests 150 "$PWD/internal/gpu/posv" "$B/posv.test" -test.v -test.skip 'Timing$|^TestKernelResources$'
stop_if_failed tests posv-tests
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic" "$L/tests.log" "$L/posv-tests.log"
[ "$part" = other ] && potrf_race "$B"
call_report
exit 0
