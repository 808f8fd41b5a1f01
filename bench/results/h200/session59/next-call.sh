#!/usr/bin/env bash
# Prepared in session 59 for the next device session, after
#   scripts/device-build build/gpu/s60
# (the committed tree, d8e1912 or later; carry ["build/gpu/s60"], timeout_s 600, kind nvidia-h200). Sessions 57 to 59
# were lent only H100s, so neither factor_rows' overlapped inverse (5fbd2c6), its eager rsqrt (d8f6322) nor the
# three-block kernel (d8e1912, native:tiled:occ=3:prec=tf32x3, which no table lists yet) has run on the H200, whose
# tables and suite figure the issue is judged by. On any other card the call stops at once.
#  1. The cholesky-gpumode suite whole (the H200's last run is session 55's 602.5 µs; the H100's 588.7 in session 58).
#  2. float32 rows, both triangles, the grid of session 56's call 3: n = 4096 and 2048 first (where the three-block
#     kernel led on the H100: 4096 at one and two matrices, 2048 at eight), then 512, 1024, 256 (the one-block
#     kernels' changes), as many as the call leaves time for; merge once per table and session with
#     scripts/merge-tuned (whole orders), then run the suite again through the new tables (the call after).
. scripts/device-steps.sh
record "$PWD/build/gpu/s60"
h200_only
step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
tune_gpumode float32 4096 2048 512 1024 256
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
