#!/usr/bin/env bash
# Session 53's call 2, with build/gpu/s53 carried after build.sh: TestRouteGPUInfinitePivot as committed (the
# fix-up failing NaN pivots only; one and three matrices); tiled panels against the blocked driver with look-ahead
# at n = 16384, 24576 and 32768 (float32 Upper, GPU MODE's inputs, one matrix); the candidate tree (quarters.patch
# and trunc): cholblocked's tests (-test.short), the suite's ten chol_tiled cases with the committed CLI and the
# candidate's, racecheck on chol_tiled at n = 97. Each step cut to what is left of 570 s, logs tarred after each.
# Run with timeout_s 600.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s53
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
cat $B/commit $B/cand/commit > $L/commit.txt
step infpivot 70 $R $B/root.test -test.v -test.run '^TestRouteGPUInfinitePivot$'
P='native:blocked:prec=tf32x3,native:blocked:panels=tiled:prec=tf32x3'
step panels 100 $R $B/batchlas bench -suite cholesky-gpumode -arms $P,vendor -cases 'n=(16384|32768)/' -count 3 -time 300ms
step panels-24576 50 $R $B/batchlas bench potrf -inputs gpumode -dtype float32 -uplo U -n 24576 -batch 1 -arms $P -count 3 -time 300ms
step cand-tests 200 $R/internal/gpu/cholblocked $B/cand/cholblocked.test -test.v -test.short \
  -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
TILED='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1)$'
step suite-head 60 $R $B/batchlas bench -suite cholesky-gpumode -arms auto -cases "$TILED" -count 3 -time 300ms
step suite-cand 60 $R $B/cand/batchlas bench -suite cholesky-gpumode -arms auto -cases "$TILED" -count 3 -time 300ms
step race 40 $R/internal/gpu/cholblocked /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
  $B/cand/cholblocked.test -test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=97$'
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "^(--- FAIL|FAIL|ok|PASS)|route_test" $L/infpivot.log | head -30
grep -E "^\| " $L/panels.log; grep -E "^Benchmark|/op|×" $L/panels-24576.log | head
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" $L/cand-tests.log | head -12
grep -E "^\| " $L/suite-head.log; grep -E "^\| " $L/suite-cand.log
grep -h "SUMMARY\|^ok\|^PASS\|^FAIL" $L/race.log | tail -3
