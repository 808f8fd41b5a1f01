#!/usr/bin/env bash
# Session 61, call 3, at bab8f0d (factor_quarters in the four-block Lower kernel, the eager rsqrt in factor_quarters;
# built by `scripts/device-build build/gpu/s61`, carry ["build/gpu/s61"]); BUDGET=480 (what the session had left).
# On an H200:
#  1. the cholesky-gpumode suite whole (the H200's last: session 55's 602.5 µs);
#  2. float32 rows, both triangles, n = 4096, 2048, 8192 (the three-block candidate, no table lists it yet; the
#     four-block kernels changed), then 128 and 96 (chol_tiled never timed past 16 matrices there), to the end of
#     the budget; merged here with scripts/merge-tuned (whole orders).
# On an H100: `batchlas kernels` (every kernel compiled and loaded by module, as 7fc3a17 made it: not yet run on a
# GPU), its table in kernels.log.
. scripts/device-steps.sh
record "$PWD/build/gpu/s61"
if grep -q H200 "$L/gpu.txt"; then
	step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	tune_gpumode float32 4096 2048 8192
	tune_potrf t-float32-128 --dtype float32 --n 128,96 --batch 256,64,1024,4096,1,2,4,8,16 --max-mib 256 --inputs gpumode
else
	step kernels 300 "$PWD" "$B/batchlas" kernels
fi
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
head -3 "$L/kernels.log"; tail -4 "$L/kernels.log"; grep -cE " (nvrtc|cache)$" "$L/kernels.log"
