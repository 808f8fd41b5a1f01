#!/usr/bin/env bash
# Session 60, call 3: chol_tiled's three-block kernel for Lower too (lower3.patch on 3533f4f: factor_rows' TIGHT
# bound in the kernels for three blocks, the kernel in kernelNames for both triangles, CanRunTiledTriangle gone),
# built by
#   scripts/device-build build/gpu/s60b -p bench/results/h200/session60/lower3.patch cholblocked:./internal/gpu/cholblocked
# (carry ["build/gpu/s60b"]):
#  1. cholblocked's tiled and resource tests (occ=3 for both triangles now) and racecheck (tiled_checks: the
#     three-block kernel's n = 97 case for both triangles);
#  2. lab/occ3L.py: the Lower kernels side by side, and what the bound costs the Upper three-block kernel;
#  3. through the public Potrf, Lower (bench potrf -uplo L, GPU MODE's inputs): the split tiled candidates pinned;
#  4. the suite's chol_tiled cases (Upper) by each split tiled candidate, pinned, as session 59's call 9.
. scripts/device-steps.sh
record "$PWD/build/gpu/s60b"
tiled_checks
step occ3L 90 "$PWD" python3 bench/results/h200/session60/lab/occ3L.py
arms=native:tiled:prec=tf32x3,native:tiled:occ=4:prec=tf32x3,native:tiled:occ=3:prec=tf32x3
for c in 4096x1 4096x2 2048x8 2048x2 1024x60 1024x4 8192x1; do
	step "lower-$c" 40 "$PWD" "$B/batchlas" bench potrf -dtype float32 -uplo L -inputs gpumode -n "${c%x*}" -batch "${c#*x}" \
		-arms "$arms" -count 3 -time 300ms
done
step suite-arms 150 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms "$arms" \
	-cases 'n=(1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1)$' -count 3 -time 300ms
tiled_report
grep -v "^compiled" "$L/occ3L.log" | tail -32
for c in 4096x1 4096x2 2048x8 2048x2 1024x60 1024x4 8192x1; do grep -hE "^Benchmark|SKIP|FAIL|panic" "$L/lower-$c.log"; done
