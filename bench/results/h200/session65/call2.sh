#!/usr/bin/env bash
# Session 65, call 2. Built here by
#   scripts/device-build build/gpu/s65 posv:./internal/gpu/posv                     (HEAD: CLI, posv.test)
#   scripts/device-build build/gpu/s65s -p bench/results/h200/session65/posv-lower-stage.patch posv:./internal/gpu/posv
#   rm build/gpu/s65s/batchlas
# carry ["build/gpu/s65", "build/gpu/s65s"], any card. posv-lower-stage.patch: posv_reg and potrs_reg copy a Lower
# row's columns into the slots by cp.async (stage_lower_row), every copy in flight before one wait; load_row's loads
# went out in two rounds behind the first pivot's shuffle (call 1's SASS under NVRTC 13).
#  Any card: s65s's posv tests at n ≤ 32 (every type, both triangles, Posv and Potrs) with TestConformance,
#  racecheck on TestPosv's float32 and complex128 Lower cases at n = 31 and 32, then TestPosvTiming's Lower rows at
#  n = 8, 16, 32 in the four types (-posv.complex) by the two builds in turns (RUNS, "s65s-1 s65-1 s65s-2 s65-2").
#  On an H200, with time left: the cholesky-gpumode suite whole by HEAD's CLI.
#  Tables: scripts/posv-ab bench/results/h200/session65/call2-logs.tgz s65 s65s
. scripts/device-steps.sh
record "$PWD/build/gpu/s65"
H=$PWD/build/gpu/s65
cp "$PWD/build/gpu/s65s/commit" "$L/commit-s65s.txt"
posv_checks "$PWD/build/gpu/s65s" Lower
posv_turns '^TestPosvTiming$/^(float32|float64|complex64|complex128)$/^n=(8|16|32)$' -posv.complex \
	${RUNS:-s65s-1 s65-1 s65s-2 s65-2}
if grep -q H200 "$L/gpu.txt"; then
	step suite 240 "$PWD" "$H/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
fi
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -hsE "RACECHECK SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test" "$L"/tests.log "$L"/racecheck.log
[ -f "$L/suite.log" ] && grep -E "^\| (potrf|geomean)" "$L/suite.log"
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L" # the device returns at most eight files
exit 0
