#!/usr/bin/env bash
# Session 59, call 10 (asked for an H200; carry ["build/gpu/s59d"], d8e1912's CLI by scripts/device-build, with
# native:tiled:occ=3:prec=tf32x3 among the candidates):
#  - on an H200: the cholesky-gpumode suite whole, then `batchlas tune potrf` of the float32 rows n = 4096 and 2048
#    (the grid of session 56's call 3, both triangles; the first rows the new candidate may lead), to the end of the
#    budget (450 s: the device had about 530 s left after its start);
#  - on any other card: lab/stages3.py (four split stages in the three-block kernel).
BUDGET=450
. scripts/device-steps.sh
record "$PWD/build/gpu/s59d"
if grep -q H200 "$L/gpu.txt"; then
	step suite 200 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	tune_gpumode float32 4096 2048
else
	step stages3 200 "$PWD" python3 bench/results/h200/session59/lab/stages3.py
fi
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -E "^\| (potrf|geomean)" "$L/suite.log" 2>/dev/null
for f in "$L"/t-*/potrf.*.txt; do [ -f "$f" ] && grep -E "^[LU] " "$f" | cut -c1-110; done
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/stages3.log" 2>/dev/null | tail -12
