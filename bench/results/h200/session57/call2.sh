#!/usr/bin/env bash
# Session 57 call 2 (carry ["build/gpu/s57p", "build/gpu/s57cli"]): session 56's sub-finished.patch (cta.cu's
# finished-block update loop written once; 22 CTA kernels' SASS changes under NVRTC 12.4: float32 Upper panels,
# complex64 steps, posv_cta float32 Upper and complex64) on the GPU. build/gpu/s57p = d9fbdc6 + the patch (potrf and
# posv tests, CLI), build/gpu/s57cli = d9fbdc6's CLI (call 1's build/gpu/s57):
#  1. potrf's CTA tests and posv's TestPosv above MaxN with the patch (the checks; the call stops if one fails);
#  2. session55/ab.sh, native:cta by both CLIs in turns with native:blocked as the yardstick, on the changed kernels'
#     cases (the suite's n128 b256 among them);
#  3. on an H200 only: the cholesky-gpumode suite whole at d9fbdc6 (session 56's tree on the Must's card).
. scripts/device-steps.sh
record "$PWD/build/gpu/s57p"
step potrf-cta 120 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.run '^(TestPotrfCTA|TestPotrfCTAFailures|TestCTAConformance|TestCTAKernelResources)$'
step posv-cta 150 "$PWD/internal/gpu/posv" "$B/posv.test" -test.v -test.run '^TestPosv$/.*/.*/^n=(33|40|44|45|47|48|49|55|56|57|63|64)$'
step posv-resources 60 "$PWD/internal/gpu/posv" "$B/posv.test" -test.v -test.run '^TestKernelResources$'
stop_if_failed potrf-cta posv-cta posv-resources
step ab 200 "$PWD" bash bench/results/h200/session55/ab.sh "$PWD/build/gpu/s57cli" "$B" \
	float32:128:256:U float32:128:1024:U float32:128:1:U float32:64:4096:U float32:224:256:U float32:96:16384:U \
	complex64:96:1024:U complex64:128:1:U complex64:128:256:L complex64:64:4096:L
h200_only
step suite 220 "$PWD" "$PWD/build/gpu/s57cli/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
cat "$L/gpu.txt" "$L/stages.txt"; grep -H "^rc " "$L"/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|worst" "$L/potrf-cta.log" "$L/posv-cta.log" "$L/posv-resources.log" | head -30
grep -hE " [1-9][0-9]* B local" "$L"/*.log | head
grep -E "^##|^Benchmark" "$L/ab.log"
grep -E "^\| (potrf|geomean)" "$L/suite.log"
