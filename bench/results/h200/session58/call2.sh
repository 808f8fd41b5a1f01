#!/usr/bin/env bash
# Session 58 call 2 (carry ["build/gpu/s58", "build/gpu/s58r"]): RSQ (call 1: 3.7-6 % faster chains in the lab,
# factors bit-equal) as a change to the tree, rsq.patch: factor_step_block computes rsqrtf whatever fail is.
# build/gpu/s58 = 45376e5's CLI, build/gpu/s58r = 45376e5 + rsq.patch (cholblocked tests, CLI).
#  1. cholblocked's tiled and resource tests with the patch, and racecheck on two of TestPotrfTiled's orders;
#     the call stops if one fails;
#  2. the cholesky-gpumode suite's chol_tiled cases (one-block: factor_rows; four-block: factor_quarters) and
#     n16384 by both CLIs, the auto arm, in turns.
# (The steps as they ran, since written as scripts/device-steps.sh's tiled_checks, tiled_turns and tiled_report.)
. scripts/device-steps.sh
record "$PWD/build/gpu/s58r"
tiled_checks
tiled_turns "$PWD/build/gpu/s58"
tiled_report
