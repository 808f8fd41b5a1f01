#!/usr/bin/env bash
# Session 59, call 13: the labs once more after tiledlab's compare_kernels and compare_failing_kernels took their
# shared checks (carry ["build/gpu/s59e"]: d8e1912's CLI, for the card's record, and 394ef77's blocked.cu, which
# lab/occ3.py's edits apply to): occ3.py (calls 6 and 7), stages3.py (call 10), pre3.py (call 11), and late.py at one
# case (run_lab, compare and compare_failing through the new helpers).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59e"
step occ3 90 "$PWD" env SOURCE=build/gpu/s59e/blocked-394ef77.cu python3 bench/results/h200/session59/lab/occ3.py
step stages3 60 "$PWD" python3 bench/results/h200/session59/lab/stages3.py
step pre3 60 "$PWD" python3 bench/results/h200/session59/lab/pre3.py
step late 45 "$PWD" env CASES=2048x8 REPS=3 python3 bench/results/h200/session59/lab/late.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
for f in occ3 stages3 pre3 late; do echo "== $f"; grep -vE "^ +chol_tiled|^[a-z0-9-]+ \([0-9]+s\):$|^compiled" "$L/$f.log" | tail -16; done
