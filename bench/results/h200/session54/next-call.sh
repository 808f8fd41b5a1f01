#!/usr/bin/env bash
# Prepared in session 54 (run with carry ["build/gpu/s55"] after next-build.sh, timeout_s 600): the GPU tests of
# cta-steps-by-type.patch (potrf_cta by steps of 8 for float64 and the complex types, float32 unchanged; its
# non-float potrf_cta kernels have the SASS of the lab's u2 under NVRTC 12.4, which passed the lab's checks on an
# H100; posv_cta and potrs_cta read its trapezoid and never ran): the potrf package's CTA tests (all four types,
# failures, conformance, resources, the timing against the vendor), posv's TestPosv, TestPosvApart, TestConformance
# and TestKernelResources, the root's TestRouteGPUPosv, then TestWarpKernelResources with what is left.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55
nvidia-smi --query-gpu=name,driver_version --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step potrf-cta 150 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestCTA|TestPotrfCTA|TestPotrsCTAMatchesWarp)'
step posv 200 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^(TestPosv|TestPosvApart|TestConformance|TestKernelResources)$'
step route-posv 60 $R $B/root.test -test.v -test.run '^TestRouteGPUPosv$'
step warp-resources 300 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^TestWarpKernelResources$'
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/*.log | head -20
grep -hE " [1-9][0-9]* B local" $L/*.log | head
grep -hE "cta_test.go:[0-9]+: .*(µs|vendor)" $L/potrf-cta.log | head -40
