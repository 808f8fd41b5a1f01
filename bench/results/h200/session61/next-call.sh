#!/usr/bin/env bash
# Prepared in session 61 for the next device session (its call 5 found too little device time left), built by
#   scripts/device-build build/gpu/s62        (the committed tree's CLI; carry ["build/gpu/s62"], kind nvidia-h200)
#  1. lab/offload.py (about 60 s): factor_rows' deferred update moved off warp 0 to warp 2 (OFFLOAD), in the
#     one-block 3xTF32 kernels that run the suite's chains (n256 b64 … n4096 b1), both triangles, bit for bit against
#     the tree and timed. Compiled here with the device's NVRTC: 146–152 registers (the tree's 255), no stack, since
#     warp 0 no longer keeps the columns beyond the next step live. If it gains, it becomes a change to blocked.cu
#     (tests, racecheck, the suite's chain cases through Potrf).
#  2. lab/one.py, Upper then Lower (about 30 s each): chol_one (a matrix whole in one block's shared memory) with its
#     copies by cp.async against native:cta's kernel, chol_tiled's one-block 3xTF32 kernel and call 4's chol_one, at
#     n = 96, 112, 128. Call 4's chol_one lost to native:cta by 1.1–2.3×, but its SASS (compiled here) has each
#     thread's load of the matrix as LDG then STS, one round trip after another, 128 of them at n = 128; the io arm
#     gives the copies' floor, one-la adds look-ahead (the next diagonal tile updated first, the rest of the trailing
#     tiles by warps 2 and 3 while warps 0 and 1 factor). If one-vec or one-la beats cta, chol_one becomes a
#     candidate (a kernel of its own module, potf2's failure contract in its stores, tests against the oracle at
#     n = 65…128 and lda > n).
#  3. On an H200 only (none lent in sessions 57 to 61): the cholesky-gpumode suite whole (the H200's last: session
#     55's 602.5 µs), then float32 rows, both triangles, n = 4096, 2048, 8192 (the three-block candidate enters the
#     tables; the four-block kernels changed in session 61), then 128 and 96, to the end of the budget; merge on the
#     development machine with scripts/merge-tuned (whole orders).
. scripts/device-steps.sh
record "$PWD/build/gpu/s62"
step offload 120 "$PWD" python3 bench/results/h200/session61/lab/offload.py
step one-U 90 "$PWD" env UPLO=U python3 bench/results/h200/session61/lab/one.py
step one-L 90 "$PWD" env UPLO=L python3 bench/results/h200/session61/lab/one.py
if grep -q H200 "$L/gpu.txt"; then
	step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	tune_gpumode float32 4096 2048 8192
	tune_potrf t-float32-128 --dtype float32 --n 128,96 --batch 256,64,1024,4096,1,2,4,8,16 --max-mib 256 --inputs gpumode
fi
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -v "^compiled" "$L/offload.log" | tail -24
grep -v "^compiled" "$L/one-U.log" | tail -14
grep -v "^compiled" "$L/one-L.log" | tail -14
grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
