#!/usr/bin/env bash
# Session 61, call 4: lab/one.py (chol_one: one block a matrix, the matrix whole in shared memory, factor_rows and
# SplitTile's products, no global hand-overs) against chol_tiled's one-block 3xTF32 kernel, Upper then Lower; and,
# for the same cases, native:cta against native:tiled:prec=tf32x3 through Potrf by bab8f0d's CLI (carry
# ["build/gpu/s61"], `scripts/device-build build/gpu/s61`), to place chol_one against native:cta.
. scripts/device-steps.sh
record "$PWD/build/gpu/s61"
step one-U 120 "$PWD" env UPLO=U python3 bench/results/h200/session61/lab/one.py
step one-L 100 "$PWD" env UPLO=L python3 bench/results/h200/session61/lab/one.py
for c in 128x64 128x256 128x1024 96x256 100x256; do
	step "cta-$c" 40 "$PWD" "$B/batchlas" bench potrf -dtype float32 -uplo U -inputs gpumode -n "${c%x*}" -batch "${c#*x}" \
		-arms native:cta,native:tiled:prec=tf32x3 -count 3 -time 300ms
done
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -v "^compiled" "$L/one-U.log" | tail -14
grep -v "^compiled" "$L/one-L.log" | tail -14
for c in 128x64 128x256 128x1024 96x256 100x256; do grep -E '^\| potrf' "$L/cta-$c.log" | tr -s ' '; done
