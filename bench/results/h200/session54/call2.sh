#!/usr/bin/env bash
# Session 54, call 2 (run with BUDGET=300, timeout_s 330; carry ["build/gpu/s54"], built by session53/next-build.sh
# at 126aeff): session 46's CTA lab first (prepared then, never run), then the cholesky-gpumode suite whole (three
# arms, every result checked; last run whole on the H200 in session 35), then cholblocked's resources and tiled
# tests (session 53's factor_rows/factor_quarters refactors, not yet run on a GPU). Call 1, the same steps with the
# suite first and 570 s, was refused at every try; eight refusals left 494 s of device time.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s54
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step lab-cta 200 $R python3 bench/results/h200/session46/lab/cta.py
step suite 200 $R $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
step cholblocked 90 $R/internal/gpu/cholblocked $B/cholblocked.test -test.v -test.short \
  -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled)$'
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "BAD|DIFFERS|WRITTEN|RESIDUAL|ALL OK|SOME" $L/lab-cta.log | head; sed -n '/^times/,$p' $L/lab-cta.log | head -60
grep -E "^\| (potrf|geomean)" $L/suite.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/cholblocked.log | head
