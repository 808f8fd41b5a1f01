#!/usr/bin/env bash
# Session 57 call 9 (carry ["build/gpu/s57m"]): the cholesky-gpumode suite whole by a7e50e5 + overlap-mbar.patch's
# CLI, the vendor arms beside it (every case checked).
BUDGET=290
. scripts/device-steps.sh
record "$PWD/build/gpu/s57m"
step suite 280 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt"; grep -E "^\| (potrf|geomean)" "$L/suite.log"; tail -3 "$L/suite.log"
