#!/usr/bin/env bash
# Session 57 call 5 (nothing carried): lab/stamps.py with NOINV=1 and EARLY=1: the stamped kernel, the bound without
# the inverse, and lab/early.py's variant (L(j, j) published before X_j, the next diagonal task solving against it;
# checked by residual and on a failing matrix), Upper at the five chain cases, Lower at two.
. scripts/device-steps.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
step early-U 200 "$PWD" env OUT="$L" NOINV=1 EARLY=1 python3 bench/results/h200/session57/lab/stamps.py
step early-L 120 "$PWD" env OUT="$L" NOINV=1 EARLY=1 UPLO=L CASES=512x16,1024x4 python3 bench/results/h200/session57/lab/stamps.py
rm -f "$L"/*.npy; tar -C "$OUT" -czf "$OUT/logs.tgz" logs
cat "$L/gpu.txt" "$L/stages.txt" "$L/early-U.log" "$L/early-L.log"
