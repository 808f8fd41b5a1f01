#!/usr/bin/env bash
# Prepared in session 63 for the next device session, built by
#   scripts/device-build build/gpu/s64        (the committed tree's CLI)
# carry ["build/gpu/s64"], kind nvidia-h200; BUDGET in the environment if less device time is left.
#  H200 only (session 63's call 4 ran the potrf checks of 6c0ad3d on one: racecheck, tests, TestPotrfTiming): the
#  cholesky-gpumode suite whole (the H200's last: session 55's 602.5 µs; since then sessions 57, 58 and 61 sped
#  up the chains and session 63 native:tiny, measured on H100s only), then the float32 rows of n = 32 (native:tiny
#  against the rest, faster since 6c0ad3d), 4096, 2048 and 8192 (the three-block candidate; the four-block kernels
#  changed in session 61), to the end of the budget; merge with scripts/merge-tuned (whole orders).
. scripts/device-steps.sh
record "$PWD/build/gpu/s64"
h200_only
step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
tune_gpumode float32 32 4096 2048 8192
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
[ -f "$L/suite.log" ] && grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do [ -f "$f" ] && grep -E "^[LU] " "$f" | cut -c1-110; done
exit 0
