#!/usr/bin/env bash
# Session 68's call 12: the potrf racecheck that call 4 (call4.sh's potrf part) meant to run and did not (its
# pattern matched no subtest, as session 63's call 4's did): TestPotrf's float32 and complex128 cases n = 31 and 32
# in both triangles (device-steps.sh's potrf_race), on call 9's build (build/gpu/s68f: potrf_reg's kernels are
# 6c0ad3d's since eb2502d, SASS unchanged), carry ["build/gpu/s68f"], any card.
. scripts/device-steps.sh
record "$PWD/build/gpu/s68f"
potrf_race "$B"
stop_if_failed racecheck
grep -h "^        --- \|RACECHECK SUMMARY" "$L/racecheck.log"
call_report
exit 0
