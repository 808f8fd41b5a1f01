#!/usr/bin/env bash
# Session 57 call 10 (nothing carried; 240 s of device time left): lab/stamps.py with FACTOR=1 and NOINV=1 on the
# tree's kernel (db379cb: factor_rows' inverse overlapped), Upper at the five chain cases.
BUDGET=100
. scripts/device-steps.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
step factor-U 90 "$PWD" env OUT="$L" FACTOR=1 NOINV=1 python3 bench/results/h200/session57/lab/stamps.py
rm -f "$L"/*.npy; tar -C "$OUT" -czf "$OUT/logs.tgz" logs
cat "$L/gpu.txt" "$L/stages.txt" "$L/factor-U.log"
