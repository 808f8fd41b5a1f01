#!/usr/bin/env bash
# Prepared in session 53 for the next device session, with build/gpu/s54 carried after next-build.sh: the
# cholesky-gpumode suite whole (three arms, every result checked: where the Aim stands after sessions 35–53's
# changes, last measured whole in session 35), TestRouteGPUInfinitePivot (session 53 ran it on an H100: whether
# the H200's cuSOLVER does the same), cholblocked's resources and tiled tests (session 53's refactors of
# factor_rows and factor_quarters ran on no GPU) and TestWarpKernelResources (session 46's warp.cu cleanups under
# CUDA 13).
# The suite took 163 s in session 35; TestWarpKernelResources more than 200 s with an empty kernel cache (session
# 35 stopped it there), so it goes last with what is left of 570 s. Run with timeout_s 600; logs in $OUT/logs.tgz.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s54
step() { # name timeout dir command...
  local name=$1 limit=$2 dir=$3; shift 3
  local left=$((570 - SECONDS))
  [ $left -lt $limit ] && limit=$left
  echo "=== $name $(date +%T) ${SECONDS}s limit ${limit}s" >> $L/stages.txt
  [ $limit -lt 15 ] && { echo "skipped: no time" > $L/$name.log; return; }
  (cd $dir && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step suite 240 $R $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
step infpivot 80 $R $B/root.test -test.v -test.run '^TestRouteGPUInfinitePivot$'
step cholblocked 90 $R/internal/gpu/cholblocked $B/cholblocked.test -test.v -test.short \
  -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled)$'
step warp-resources 330 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^TestWarpKernelResources$'
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "^\| (potrf|geomean)" $L/suite.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|route_test|panic" $L/infpivot.log $L/cholblocked.log $L/warp-resources.log | head -20
grep -hE " [1-9][0-9]* B local" $L/cholblocked.log $L/warp-resources.log | head
