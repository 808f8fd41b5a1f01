#!/usr/bin/env bash
# Prepared in session 61 for the next device session (its call 5 found too little device time left), built by
#   scripts/device-build build/gpu/s62        (the committed tree's CLI)
#   scripts/device-build build/gpu/s62o -p bench/results/h200/session61/offload.patch \
#     cholblocked:./internal/gpu/cholblocked
# (offload.patch: lab/offload.py's OFFLOAD as a change to blocked.cu, with its comments), carry
# ["build/gpu/s62", "build/gpu/s62o"], kind nvidia-h200. On an H100 (the labs, then the patch's checks and turns):
#  1. lab/offload.py (about 60 s): factor_rows' deferred update moved off warp 0 to warp 2 (OFFLOAD), in the
#     one-block 3xTF32 kernels that run the suite's chains (n256 b64 … n4096 b1), both triangles, bit for bit against
#     the tree and timed. Compiled here with the device's NVRTC: 146–152 registers (the tree's 255), no stack, since
#     warp 0 no longer keeps the columns beyond the next step live. Then offload.patch's checks (tiled_checks:
#     cholblocked's GPU tests and racecheck) and the suite's chol_tiled cases by s62 and s62o in turns (tiled_turns),
#     as far as the budget goes: land the patch if they pass and it gains.
#  2. lab/one.py, Upper (about 30 s; UPLO=L for Lower): chol_one (a matrix whole in one block's shared memory) with its
#     copies by cp.async against native:cta's kernel, chol_tiled's one-block 3xTF32 kernel and call 4's chol_one, at
#     n = 96, 112, 128. Call 4's chol_one lost to native:cta by 1.1–2.3×, but its SASS (compiled here) has each
#     thread's load of the matrix as LDG then STS, one round trip after another, 128 of them at n = 128; the io arm
#     gives the copies' floor, one-la adds look-ahead (the next diagonal tile updated first, the rest of the trailing
#     tiles by warps 2 and 3 while warps 0 and 1 factor). If one-vec or one-la beats cta, chol_one becomes a
#     candidate (a kernel of its own module, potf2's failure contract in its stores, tests against the oracle at
#     n = 65…128 and lda > n).
#  3. On an H200 instead (none lent in sessions 57 to 61): the cholesky-gpumode suite whole by s62 (the H200's
#     last: session 55's 602.5 µs), lab/offload.py, then float32 rows, both triangles, n = 4096, 2048, 8192 (the
#     three-block candidate enters the tables; the four-block kernels changed in session 61), then 128 and 96, to
#     the end of the budget; merge on the development machine with scripts/merge-tuned (whole orders).
. scripts/device-steps.sh
record "$PWD/build/gpu/s62o"
if grep -q H200 "$L/gpu.txt"; then
	step suite 240 "$PWD" build/gpu/s62/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	step offload 160 "$PWD" python3 bench/results/h200/session61/lab/offload.py
	B=$PWD/build/gpu/s62 # the tables are the committed kernels'
	tune_gpumode float32 4096 2048 8192
	tune_potrf t-float32-128 --dtype float32 --n 128,96 --batch 256,64,1024,4096,1,2,4,8,16 --max-mib 256 --inputs gpumode
	cat "$L/gpu.txt" "$L/stages.txt"
	grep -H "^rc " "$L"/*.log
	grep -E "^\| (potrf|geomean)" "$L/suite.log"
	grep -v "^compiled" "$L/offload.log" | tail -40
	for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
	exit 0
fi
step offload 160 "$PWD" python3 bench/results/h200/session61/lab/offload.py
step one-U 90 "$PWD" env UPLO=U python3 bench/results/h200/session61/lab/one.py
tiled_checks
tiled_turns "$PWD/build/gpu/s62"
grep -v "^compiled" "$L/offload.log" | tail -40
grep -v "^compiled" "$L/one-U.log" | tail -14
tiled_report
