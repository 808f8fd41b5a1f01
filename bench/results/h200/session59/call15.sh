#!/usr/bin/env bash
# Session 59, call 15: lab/occ3L.py with VARIANTS rp, nx, nx-u4 (the three-block kernel for Lower: its resources
# under the device's NVRTC with copy_tile's 4-byte loop unrolled less, and its times beside the one- and four-block
# Lower kernels; 5a7ca31's blocked.cu, carry ["build/gpu/s59e"] for the card's record only).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59e"
step occ3L 120 "$PWD" python3 bench/results/h200/session59/lab/occ3L.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^compiled" "$L/occ3L.log" | tail -30
