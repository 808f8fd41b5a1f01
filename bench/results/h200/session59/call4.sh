#!/usr/bin/env bash
# Session 59, call 4: lab/late.py (tile (j, j − 1)'s release after the four-block diagonal task's last update).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59"
step late 300 "$PWD" python3 bench/results/h200/session59/lab/late.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/late.log" | tail -20
