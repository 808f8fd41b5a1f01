#!/usr/bin/env bash
# Session 68's call 9: the racecheck call 8 meant to run (its pattern put a slash inside parentheses, so it raced no
# test): TestPosvSplit's float32 cases n = 61 and 64 in both triangles, on call 8's build (build/gpu/s68f, carry
# ["build/gpu/s68f"], any card).
. scripts/device-steps.sh
record "$PWD/build/gpu/s68f"
step racecheck 150 "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
	"$B/potrf.test" -test.v -test.run '^TestPosvSplit$/^float32$/^(Lower|Upper)$/^n=(61|64)$'
stop_if_failed racecheck
grep -h "^    --- \|RACECHECK SUMMARY" "$L/racecheck.log"
call_report
exit 0
