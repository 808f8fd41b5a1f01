#!/usr/bin/env bash
# Session 61, call 5: lab/one.py again, Upper only, with chol_one's copies in and out as 16-byte cp.async and vector
# stores (one-vec; call 4's chol_one copied a float at a time). No build (the tree's lab alone).
. scripts/device-steps.sh
record "$PWD/build/gpu/s61"
step one-U 120 "$PWD" env UPLO=U python3 bench/results/h200/session61/lab/one.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -v "^compiled" "$L/one-U.log" | tail -16
