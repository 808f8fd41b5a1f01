#!/usr/bin/env bash
# Session 54, call 2: call1.sh's steps reordered for what device time five refusals left (run with BUDGET=300,
# timeout_s 330; carry ["build/gpu/s54"]): session 46's CTA lab first (never run), then the suite, then cholblocked.
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
