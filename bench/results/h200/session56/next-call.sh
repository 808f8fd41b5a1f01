#!/usr/bin/env bash
# Prepared in session 56 for the next device session (after `scripts/device-build build/gpu/s57`, the committed
# tree's CLI; carry ["build/gpu/s57"], timeout_s 600). Session 56's device time ran out before lab/handoff.py ran.
#  1. lab/handoff.py (CuPy, about 10 s): one hand-over between two blocks through global memory against one through
#     a cluster peer's shared memory, and the barriers' costs: whether a chain's matrix kept in one cluster is worth
#     designing (the lab's header says why).
#  2. On an H200 only: the cholesky-gpumode suite whole at the committed tree (session 56 landed float64 and complex
#     kernels and re-tuned float32 rows without moving a suite case; this checks that on the card the Must is for).
. scripts/device-steps.sh
record "$PWD/build/gpu/s57"
step handoff 120 "$PWD" python3 bench/results/h200/session56/lab/handoff.py
h200_only
step suite 220 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt" "$L/handoff.log"; grep -H "^rc " "$L"/*.log
grep -E "^\| (potrf|geomean)" "$L/suite.log"
