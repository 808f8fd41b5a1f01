#!/usr/bin/env bash
# Session 47, call 2 (prepared, not run: no machine was lent), with build/gpu carried after build.sh: on the
# committed tree, TestStatusesWritten (Potrf's candidates and now Posv's native:fused with garbage in the Info),
# the same on the guard build (must FAIL at n ≤ 32: posv_reg storing only failures), TestPosvOverhead (Posv with
# and without the memset it no longer makes), TestWarpKernelResources and TestPosvSplit (session 46's warp.cu
# cleanups, SASS-identical under NVRTC 12.4, not yet run on the GPU), lab/ablate.py (chol_tiled by parts), then
# TestTiming at n = 32768 with and without tiled panels.
# About 7 minutes; run with timeout_s 600. Logs tarred into $OUT/logs.tgz after each step.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s47
step() { # name timeout dir command...
  local name=$1 limit=$2 dir=$3; shift 3
  (cd $dir && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
# (native:tiled's cases, added in session 48, run in session 48's call 2 with their guard.)
step statuses 200 $R $B/root.test -test.v -test.run '^TestStatusesWritten$/^(Potrf|Posv)$/^native:(tiny|warp|cta|fused)$'
step statuses-guard 120 $R $B/root-guard.test -test.v -test.run '^TestStatusesWritten$/^Posv/'
step posv-overhead 150 $R $B/root.test -test.v -test.run '^TestPosvOverhead$' -overhead
step warp 150 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestPosvSplit)$'
step ablate 240 $R python3 bench/results/h200/session47/lab/ablate.py
# n = 32768, one matrix: the blocked driver's 3xTF32 products with and without tiled panels (route's
# maxTiledPanelsN stops at 16384 because 32768 was never timed; the suite's n32768 b1 takes the plain one).
step tiledpanels-32768 150 $R/internal/gpu/cholblocked $B/cholblocked.test -test.v -test.run '^TestTiming$' \
  -blocked.cases 32768x1 -blocked.tiledpanels -blocked.arms 3xTF32,3xTF32+tiledpanels
grep -hE "^(--- FAIL|FAIL|ok|PASS|rc)" $L/statuses.log $L/statuses-guard.log $L/warp.log | sort | uniq -c | head -20
grep -h "µs per call" $L/posv-overhead.log
cat $L/ablate.log | tail -25
grep -A8 'µs (median)' $L/tiledpanels-32768.log | head -12
