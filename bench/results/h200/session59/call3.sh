#!/usr/bin/env bash
# Session 59, call 3: lab/chain4.py, the four-block kernel's chain from one diagonal tile to the next against the
# one-block kernel's (stamps; the working tree's blocked.cu, the committed one).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59"
step chain4 300 "$PWD" python3 bench/results/h200/session59/lab/chain4.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/chain4.log" | tail -20
