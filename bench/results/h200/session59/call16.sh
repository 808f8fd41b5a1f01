#!/usr/bin/env bash
# Session 59, call 16 (kind nvidia-h200, carry ["build/gpu/s59f"] = 2a94b62's CLI, with the budget's last ~270 s):
# on an H200 only, the cholesky-gpumode suite whole (the H200's last run is session 55's 602.5 µs); on any other
# card nothing.
BUDGET=170
. scripts/device-steps.sh
record "$PWD/build/gpu/s59f"
h200_only
step suite 160 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -E "^\| (potrf|geomean)" "$L/suite.log"
