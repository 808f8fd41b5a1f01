#!/usr/bin/env bash
# Session 59, call 11: lab/pre3.py (prefix tasks in the three-block kernel; d8e1912's blocked.cu and its edits).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59d"
step pre3 200 "$PWD" python3 bench/results/h200/session59/lab/pre3.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/pre3.log" | tail -16
grep -A3 "^pre " "$L/pre3.log"
