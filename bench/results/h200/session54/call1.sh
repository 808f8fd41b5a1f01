#!/usr/bin/env bash
# Session 54, call 1 (carry ["build/gpu/s54"], timeout_s 600; built by session53/next-build.sh at HEAD): the
# cholesky-gpumode suite whole (three arms, every result checked; last run whole on the H200 in session 35),
# cholblocked's resources and tiled tests (session 53's factor_rows/factor_quarters refactors, not yet run on a
# GPU), then session 46's CTA lab (lab/cta.py: potrf_cta with A staged in shared memory by cp.async, by steps of
# 8, two threads a row; prepared in session 46, never run) with what is left.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s54
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step suite 240 $R $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
step cholblocked 90 $R/internal/gpu/cholblocked $B/cholblocked.test -test.v -test.short \
  -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled)$'
step lab-cta 330 $R python3 bench/results/h200/session46/lab/cta.py
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "^\| (potrf|geomean)" $L/suite.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/cholblocked.log | head
grep -hE " [1-9][0-9]* B local" $L/cholblocked.log | head
grep -E "BAD|DIFFERS|WRITTEN|RESIDUAL|ALL OK|SOME" $L/lab-cta.log | head; sed -n '/^times/,$p' $L/lab-cta.log | head -60
