#!/usr/bin/env bash
# Session 57 call 4 (nothing carried): lab/stamps.py again with NOINV=1, the stamped kernel beside one whose
# factor_rows forms no inverse (unchecked: a bound on what taking the inverse off the chain could save), Upper at
# the five chain cases, Lower at n512 b16.
. scripts/device-steps.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
step noinv-U 200 "$PWD" env OUT="$L" NOINV=1 python3 bench/results/h200/session57/lab/stamps.py
step noinv-L 100 "$PWD" env OUT="$L" NOINV=1 UPLO=L CASES=512x16 python3 bench/results/h200/session57/lab/stamps.py
cat "$L/gpu.txt" "$L/stages.txt" "$L/noinv-U.log" "$L/noinv-L.log"
