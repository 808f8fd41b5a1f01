#!/usr/bin/env bash
# Session 57 call 6 (nothing carried): lab/stamps.py with OVERLAP=1 and NOINV=1: lab/overlap.py's factor_rows (its
# inverse in warp 1 while warp 0 factors; the same bits, checked against the stamped kernel's and on a failing
# matrix) beside the bound without the inverse, Upper at the five chain cases, Lower at two.
. scripts/device-steps.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
step overlap-U 200 "$PWD" env OUT="$L" NOINV=1 OVERLAP=1 python3 bench/results/h200/session57/lab/stamps.py
step overlap-L 120 "$PWD" env OUT="$L" NOINV=1 OVERLAP=1 UPLO=L CASES=512x16,1024x4,4096x1 python3 bench/results/h200/session57/lab/stamps.py
rm -f "$L"/*.npy; tar -C "$OUT" -czf "$OUT/logs.tgz" logs
cat "$L/gpu.txt" "$L/stages.txt" "$L/overlap-U.log" "$L/overlap-L.log"
