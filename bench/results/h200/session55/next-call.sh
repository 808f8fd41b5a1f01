#!/usr/bin/env bash
# Prepared in session 55 (after next-build.sh; carry ["build/gpu/s55"], timeout_s 600): upper-copies.patch's
# posv_cta on a GPU, which call 5 could not reach (its TestPosv compiled posv's kernels one order at a time on a cold
# cache and ran out of its 100 s at float32 n = 49, before the types the patch changes): first the two tests that
# compile in parallel what TestPosv above MaxN would compile one order at a time (posv's TestKernelResources: every
# posv kernel, posv_cta included; potrf's TestWarpKernelResources: the warp tier that posv and the reference factor
# use up to n = 64; both fail on local memory; 32 and 63 s in call 1), then call4.sh (potrf's CTA tests, posv's
# TestPosv at the orders above MaxN, and on an H200 call 3's tunes again).
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
step posv-resources 120 $R/internal/gpu/posv $R/build/gpu/s55/posv.test -test.v -test.run '^TestKernelResources$'
step warp-resources 150 $R/internal/gpu/potrf $R/build/gpu/s55/potrf.test -test.v -test.run '^TestWarpKernelResources$'
. bench/results/h200/session55/call4.sh
