#!/usr/bin/env bash
# Session 57 call 8 (carry ["build/gpu/s57h", "build/gpu/s57m"]): call 7 again with overlap-mbar.patch, whose
# warp 0 publishes its steps to warp 1 through mbarriers (as factor_quarters) instead of call 7's counter in shared
# memory (st.release / ld.acquire), on which racecheck reported hazards.
# build/gpu/s57h = a7e50e5's CLI, build/gpu/s57m = a7e50e5 + overlap-mbar.patch (cholblocked tests, CLI).
#  1. cholblocked's tiled and resource tests with the patch, and racecheck on two of TestPotrfTiled's orders
#     (3xTF32 Upper and exact Lower, n = 97); the call stops if one fails;
#  2. the cholesky-gpumode suite's chol_tiled cases and n16384 (the blocked driver's tiled panels) by both CLIs,
#     the auto arm, in turns.
# (The steps as they ran, since written as scripts/device-steps.sh's tiled_checks, tiled_turns and tiled_report.)
. scripts/device-steps.sh
record "$PWD/build/gpu/s57m"
tiled_checks
tiled_turns "$PWD/build/gpu/s57h"
tiled_report
