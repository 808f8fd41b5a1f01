#!/usr/bin/env bash
# Prepared in session 58 for the next device session, after
#   scripts/device-build build/gpu/s59
# (the committed tree, d8f6322 or later; carry ["build/gpu/s59"], timeout_s 600, kind nvidia-h200). Sessions 57 and
# 58 were lent only H100s, so neither factor_rows' overlapped inverse (5fbd2c6) nor its eager rsqrt (d8f6322) has
# run on the H200, whose tables and suite figure the issue is judged by. On any other card the call stops at once.
#  1. The cholesky-gpumode suite whole (the H200's last run is session 55's 602.5 µs; the H100's 588.7 now, 598.1
#     with the overlap alone, 616.6 before it).
#  2. float32 rows where the one-block chol_tiled kernels run (n = 256 … 2048; their 3xTF32 forms are 5–16 % faster
#     at the suite's chains on the H100 than when the rows were measured), both triangles, the grid of session 56's
#     call 3, as many as the call leaves time for (n = 4096 in the call after); merge once per table and session
#     with scripts/merge-tuned (whole orders).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59"
h200_only
step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
tune_gpumode float32 512 1024 256 2048
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
