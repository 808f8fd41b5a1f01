#!/usr/bin/env bash
# Session 58 call 3 (carry ["build/gpu/s58", "build/gpu/s58r"]): call 2 again with rsq.patch as it is now: factor_rows
# takes factor_step_block's EAGER rsqrt in the 3xTF32 kernels only (call 2's form, eager everywhere, failed
# TestKernelResources: 8-80 B of local memory in the exact one-block kernels and the four-block Upper 3xTF32 one).
# build/gpu/s58 = 45376e5's CLI, build/gpu/s58r = 45376e5 + rsq.patch (cholblocked tests, CLI).
#  1. cholblocked's tiled and resource tests with the patch, and racecheck on two of TestPotrfTiled's orders;
#     the call stops if one fails;
#  2. the cholesky-gpumode suite's chol_tiled cases (one-block: factor_rows; four-block: factor_quarters) and
#     n16384 by both CLIs, the auto arm, in turns; 3. the suite whole by the candidate.
# (The steps as they ran, since written as scripts/device-steps.sh's tiled_checks, tiled_turns and tiled_report.)
. scripts/device-steps.sh
record "$PWD/build/gpu/s58r"
tiled_checks
tiled_turns "$PWD/build/gpu/s58"
step suite-whole 170 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
tiled_report
