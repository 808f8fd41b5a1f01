#!/usr/bin/env bash
# Session 67's call 3 (not run in session 67: no machine came after calls 1 and 2): the landed version (posv_reg and
# potrs_reg fill Lower rows by lower_row, the float32 potrf rows n = 32, 2048, 4096, 8192 measured in call 1 merged
# into tuned/) on the GPU. Built here by
#   scripts/device-build build/gpu/s67 posv:./internal/gpu/posv                          (this version: CLI, posv.test)
#   scripts/device-build build/gpu/s65 -r 1e36927 posv:./internal/gpu/posv             (the version before)
#   rm build/gpu/s65/batchlas
# carry ["build/gpu/s67", "build/gpu/s65"], any card:
#  - s67's posv tests at n ≤ 32 (every type, both triangles, Posv and Potrs) with TestConformance, racecheck on
#    TestPosv's float32 and complex128 Lower cases at n = 31 and 32 (posv_checks);
#  - TestPosvTiming's Lower rows at n = 8, 16, 32 in the four types (-posv.complex) by s67 and s65 in turns (RUNS);
#  - on an H200 only, the cholesky-gpumode suite whole by s67's CLI, whose tables hold call 1's rows.
# Tables: scripts/posv-ab bench/results/h200/session67/call3-logs.tgz s65 s67
. scripts/device-steps.sh
record "$PWD/build/gpu/s67"
cp "$PWD/build/gpu/s65/commit" "$L/commit-s65.txt"
posv_checks "$PWD/build/gpu/s67" Lower
posv_turns '^TestPosvTiming$/^(float32|float64|complex64|complex128)$/^n=(8|16|32)$' -posv.complex \
	${RUNS:-s67-1 s65-1 s67-2 s65-2}
h200_only
gpumode_suite
call_report
exit 0
