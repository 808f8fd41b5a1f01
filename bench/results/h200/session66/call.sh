#!/usr/bin/env bash
# Session 66's call (not run in session 66: no machine came). Built here by
#   scripts/device-build build/gpu/s65 posv:./internal/gpu/posv                          (HEAD: CLI, posv.test)
#   scripts/device-build build/gpu/s65s -p bench/results/h200/session65/posv-lower-stage.patch posv:./internal/gpu/posv
#   scripts/device-build build/gpu/s66u -p bench/results/h200/session65/posv-lower-stage.patch \
#       -p bench/results/h200/session66/posv-lower-stage-u4.patch posv:./internal/gpu/posv
#   rm build/gpu/s65s/batchlas build/gpu/s66u/batchlas
# carry ["build/gpu/s65", "build/gpu/s65s", "build/gpu/s66u"], any card. Both patches copy a Lower row's columns
# into the slots by cp.async (stage_lower_row) before one wait; s65s unrolls the copies whole, s66u four columns a
# trip (double n = 32: 136 registers against 112, see the README).
#  PART=posv (the default but on an H200): s66u's posv tests at n ≤ 32 (every type, both triangles, Posv and Potrs)
#  with TestConformance, racecheck on TestPosv's float32 and complex128 Lower cases at n = 31 and 32, then
#  TestPosvTiming's Lower rows at n = 8, 16, 32 in the four types (-posv.complex) by the three builds in turns (RUNS).
#  PART=suite (the default on an H200, and only there): the cholesky-gpumode suite whole by HEAD's CLI (157 s in
#  session 55), then the float32 re-tune of session64/call1.sh (tune_gpumode float32 32 4096 2048 8192, each to the
#  end of the budget): the H200's suite figure is session 55's and the three-block candidate is in no table yet,
#  both of which bear on the Aim, as Posv's rows do not. Then call again at once with PART=posv (a machine waits
#  30 s).
#  Tables: scripts/posv-ab bench/results/h200/session66/call-logs.tgz s65 s65s s66u
. scripts/device-steps.sh
record "$PWD/build/gpu/s65"
cp "$PWD/build/gpu/s65s/commit" "$L/commit-s65s.txt"
cp "$PWD/build/gpu/s66u/commit" "$L/commit-s66u.txt"
if [ "$(call_part)" = suite ]; then
	suite_and_tune float32 32 4096 2048 8192
else
	posv_checks "$PWD/build/gpu/s66u" Lower
	posv_turns '^TestPosvTiming$/^(float32|float64|complex64|complex128)$/^n=(8|16|32)$' -posv.complex \
		${RUNS:-s66u-1 s65s-1 s65-1 s66u-2 s65s-2 s65-2}
fi
call_report
exit 0
