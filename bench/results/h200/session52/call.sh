#!/usr/bin/env bash
# Session 52's call, with build/gpu/s52 carried after build.sh: the checks sessions 47 and 51 prepared and no GPU
# has run, most wanted first, each step cut to what is left of 570 s. matbatch on the GPU; `batchlas run` against
# NumPy with the package's own .npy code; every Potrf candidate on a matrix with an infinite pivot against the CPU
# (TestRouteGPUInfinitePivot; and TestRouteGPUCandidates, whose pins it now shares); lab/ablate.py (chol_tiled by parts: where the Aim's room is);
# TestStatusesWritten's Posv cases on the guard build (must FAIL); TestPosvOverhead (Posv with and without the info
# memset); session 46's warp.cu cleanups (TestWarpKernelResources, TestPosvSplit); blocked driver at n = 32768 with
# and without tiled panels; the posv table's float32 Lower rows n = 48, 64 at 16,384 and 65,536 systems. Run with timeout_s 600. Logs in $OUT/logs.tgz.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s52
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
step matbatch 60 $R/matbatch $B/matbatch.test -test.v
step run-numpy 90 $R python3 scripts/run-numpy-check $B/batchlas -device cuda
step infpivot 90 $R $B/root.test -test.v -test.run '^(TestRouteGPUInfinitePivot|TestRouteGPUCandidates)$'
step infpivot-nanonly 60 $R $B/root-nanonly.test -test.v -test.run '^TestRouteGPUInfinitePivot$'
step ablate 200 $R python3 bench/results/h200/session47/lab/ablate.py
step statuses-guard 60 $R $B/root-guard.test -test.v -test.run '^TestStatusesWritten$/^Posv/'
step posv-overhead 60 $R $B/root.test -test.v -test.run '^TestPosvOverhead$' -overhead
step warp 60 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestPosvSplit)$'
step tiledpanels-32768 90 $R/internal/gpu/cholblocked $B/cholblocked.test -test.v -test.run '^TestTiming$' \
  -blocked.cases 32768x1 -blocked.tiledpanels -blocked.arms 3xTF32,3xTF32+tiledpanels
# The posv table's float32 Lower rows n = 48 and 64 at saturating batch, now that Posv makes no info memset (the
# issue's 5×: Lower n = 64, 16 right-hand sides, 16,384 systems stood at 4.999×).
step tune-posv 120 $R $B/batchlas tune posv --device cuda --dtype float32 --n 48,64 --uplo L --nrhs 1,4,16 \
  --batch 16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|no GPU" $L/matbatch.log $L/infpivot.log $L/statuses-guard.log $L/warp.log | sort | uniq -c | head -20
grep -E "^ +route_test.go" $L/infpivot.log | head -30
grep -E "^ +route_test.go" $L/infpivot-nanonly.log | head -20
grep -c "^ok " $L/run-numpy.log; grep "^FAIL" $L/run-numpy.log | head
tail -25 $L/ablate.log
grep -h "µs per call" $L/posv-overhead.log
grep -A8 'µs (median)' $L/tiledpanels-32768.log | head -12
tail -20 $L/tune-posv.log
