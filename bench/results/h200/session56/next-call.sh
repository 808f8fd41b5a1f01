#!/usr/bin/env bash
# Prepared in session 56 for the next device session, after
#   scripts/device-build build/gpu/s57 potrf:./internal/gpu/potrf posv:./internal/gpu/posv
# (the committed tree; carry ["build/gpu/s57"], timeout_s 600). Session 56's device time ran out first.
#  1. lab/handoff.py (CuPy, about 10 s): one hand-over between two blocks through global memory against one through
#     a cluster peer's shared memory, and the barriers' costs: whether a chain's matrix kept in one cluster is worth
#     designing (the lab's header says why).
#  2. lab/cluster.py: cluster.cu's Cholesky held in a cluster's shared memory, checked (both triangles, orders on
#     both sides of the tile edges, random, ill-conditioned and failing matrices, lda > n), then timed against
#     chol_tiled on the suite's chains (n512 b16, n256 b64, Upper and Lower).
#  3. potrf's TestWarpKernelResources, TestPotrfCTA and TestCTAKernelResources, and posv's TestPosv above MaxN, on a
#     cold kernel cache, now that they compile their modules in parallel first (potrf.LoadWarpModules and
#     LoadCTAModules; session 56's call 1 ran out of 150 s on the first, session 55's call 5 of 100 s on the last):
#     their times are the check, their results the tests.
#  4. On an H200 only, if the time is left: the cholesky-gpumode suite whole at the committed tree (session 56
#     landed float64 and complex kernels and re-tuned float32 rows without moving a suite case; this checks it on
#     the card the Must is for).
. scripts/device-steps.sh
record "$PWD/build/gpu/s57"
step handoff 60 "$PWD" python3 bench/results/h200/session56/lab/handoff.py
step cluster 150 "$PWD" python3 bench/results/h200/session56/lab/cluster.py
step warp-resources 150 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.run '^TestWarpKernelResources$'
step potrf-cta 120 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.run '^(TestPotrfCTA|TestCTAKernelResources)$'
step posv-cta 150 "$PWD/internal/gpu/posv" "$B/posv.test" -test.v -test.run '^TestPosv$/.*/.*/^n=(33|40|44|45|47|48|49|55|56|57|63|64)$'
h200_only
step suite 220 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt" "$L/handoff.log" "$L/cluster.log"; grep -H "^rc " "$L"/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|worst" "$L/warp-resources.log" "$L/potrf-cta.log" "$L/posv-cta.log" | head -20
grep -hE " [1-9][0-9]* B local" "$L"/*.log | head
grep -E "^\| (potrf|geomean)" "$L/suite.log"
