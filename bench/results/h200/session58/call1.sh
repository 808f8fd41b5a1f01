#!/usr/bin/env bash
# Prepared in session 57 for the next device session, after
#   scripts/device-build build/gpu/s58
# (the committed tree, 5fbd2c6 or later; carry ["build/gpu/s58"], timeout_s 600, kind nvidia-h200). Session 57's nine
# calls were all lent an H100, so factor_rows' overlapped inverse (5fbd2c6) has not run on the H200, whose tables
# and suite figure the issue is judged by.
#  0. On any card (about 10 s): lab/stamps.py with FACTOR=1 and NOINV=1 on the tree's kernel: the chain's step with
#     the overlap landed, and clock64 stamps inside factor_rows (each of warp 0's steps, warp 1's end, the storing
#     warps): where the diagonal factor's 4 µs go, for the next change (call 10 ran it once, on an H100); and RSQ,
#     factor_step_block's rsqrt taken off the failure test's chain (the same bits, checked; never run).
#  1. On an H200 only: the cholesky-gpumode suite whole (the H200's last run is session 55's 602.5 µs; the H100's
#     598.1 with the change, 616.6 before it).
#  2. float32 rows where the one-block chol_tiled kernels run (n = 256 … 2048; they are 3.5–10.5 % faster at the
#     suite's chains on the H100), both triangles, the grid of session 56's call 3, as many as the call leaves time
#     for (n = 4096 in the call after); merge once per table and session with scripts/merge-tuned (whole orders).
. scripts/device-steps.sh
record "$PWD/build/gpu/s58"
step stamps 90 "$PWD" env OUT="$L" FACTOR=1 NOINV=1 RSQ=1 python3 bench/results/h200/session57/lab/stamps.py
rm -f "$L"/*.npy
h200_only
step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
G="--batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --max-mib 256 --inputs gpumode"
for n in 512 1024 256 2048; do
	tune_potrf t-float32-$n --dtype float32 --n $n $G
done
cat "$L/gpu.txt" "$L/stages.txt"; grep -H "^rc " "$L"/*.log
cat "$L/stamps.log"; grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
