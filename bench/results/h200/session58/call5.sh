#!/usr/bin/env bash
# Session 58 call 5 (carry ["build/gpu/s58r"] = 45376e5 + rsq.patch, the tree as landed): the cholesky-gpumode
# suite whole (call 3's run of it stopped at its 170 s limit before n = 32768).
. scripts/device-steps.sh
record "$PWD/build/gpu/s58r"
step suite 420 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt"; grep -H "^rc " "$L"/*.log
grep -E "^\| " "$L/suite.log"
