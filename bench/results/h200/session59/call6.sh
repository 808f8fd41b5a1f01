#!/usr/bin/env bash
# Session 59, call 6: lab/occ3.py (a 3xTF32 chol_tiled for three blocks a multiprocessor).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59"
step occ3 300 "$PWD" python3 bench/results/h200/session59/lab/occ3.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/occ3.log" | tail -20
