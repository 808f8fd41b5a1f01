#!/usr/bin/env bash
# Session 59, call 12 (d8e1912's blocked.cu): lab/chain4.py's stamps with the three-block kernel beside the one- and
# four-block ones, and lab/late.py's head against itself at one case, which runs tiledlab's run_lab and interleaved
# after their change (e9020bb and the working tree's shared-memory override).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59d"
step chain3 150 "$PWD" env BLOCKS=1,3,4 CASES=4096x2,2048x8,4096x1 python3 bench/results/h200/session59/lab/chain4.py
step late-smoke 60 "$PWD" env CASES=2048x8 REPS=3 python3 bench/results/h200/session59/lab/late.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/chain3.log" | tail -14
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/late-smoke.log" | tail -6
