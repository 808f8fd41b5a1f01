#!/usr/bin/env bash
# Session 68's lab: float32 posv_split (split32.patch: the split body's factor by panels in the packed tile and
# tri_solve's half-warp chunks, as float64 takes from n = 57; for float the pivots keep rsqrt_, as posv_warp's do)
# against posv_warp, which serves every float32 order 33…64, and posv_cta, in TestPosvWarpTiming (Lower, n = 48, 56,
# 64, 1, 4, 16 right-hand sides, 16,384 and 65,536 systems; the three arms interleaved in one process, X compared).
# Under the device's NVRTC 13 here (scripts/kernel-sass) float posv_split takes 80–111 registers (posv_warp<float,
# 64> 158) and no local memory; no float64 kernel's SASS changes. Built here by
#   scripts/device-build build/gpu/s68x -p bench/results/h200/session68/split32.patch potrf:./internal/gpu/potrf
# carry ["build/gpu/s68x"], any card. split-lab2.sh runs it on another build (BUILD).
. scripts/device-steps.sh
record "$PWD/build/gpu/${BUILD:-s68x}"
step split-timing 300 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.run '^TestPosvWarpTiming$'
grep -h "split/warp\|FAIL\|panic" "$L/split-timing.log"
call_report
exit 0
