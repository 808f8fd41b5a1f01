#!/usr/bin/env bash
# Session 50's call (prepared; the device was withdrawn before it ran), with build/gpu/s50 carried after build.sh: chol_tiled
# with factor_quarters (quarters.patch, mbarrier form) in its
# float kernels for one block a multiprocessor and in the Upper 3xTF32 one for four. cholblocked's tests (-test.short)
# of every tiled and blocked path, kernel resources under CUDA 13; racecheck on TestPotrfTiled at n = 97 (float32
# 3xTF32 Upper and Lower, exact Upper, 3xTF32 occ=4 Upper; the suite runs after the first); the cholesky-gpumode
# suite's ten chol_tiled cases, vendor against auto, until 400 s. Logs tarred into $OUT/logs2.tgz after each step. Run with timeout_s 600.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs2; mkdir -p $L
B=$R/build/gpu/s50
CS=/usr/local/cuda/bin/compute-sanitizer
step() { # name timeout command... (in internal/gpu/cholblocked)
  local name=$1 limit=$2; shift 2
  echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
  (cd $R/internal/gpu/cholblocked && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs2.tgz logs2
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step tests 200 $B/cholblocked.test -test.v -test.short \
  -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
race() { step race-$(echo "$1" | tr -dc 'A-Za-z0-9=' | tr '=' '_') 40 $CS --tool racecheck --error-exitcode 9 $B/cholblocked.test \
  -test.short -test.v -test.run "TestPotrfTiled/$1/^n=97\$"; }
race '^float32$/^3xTF32$/^Upper$'
# The suite's ten cases that chol_tiled runs (the others keep their kernels but for the blocked driver's panels).
TILED='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1)$'
left=$((400 - SECONDS))
echo "=== suite $(date +%T) ${SECONDS}s" >> $L/stages.txt
(cd $R && timeout $left $B/batchlas bench -suite cholesky-gpumode -arms vendor,auto -cases "$TILED" > $L/suite.log 2>&1; echo "rc $?" >> $L/suite.log)
for p in '^float32$/^3xTF32$/^Lower$' '^float32$/^Upper$' '^float32$/^3xTF32$/^occ=4$/^Upper$'; do race "$p"; done
tar -C $OUT -czf $OUT/logs2.tgz logs2
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" $L/tests.log | head -12
for f in $L/race-*.log; do echo "## $f"; grep -h "SUMMARY\|^ok\|^PASS\|^FAIL" $f | tail -3; done
grep -E "^\| (potrf|geomean)" $L/suite.log
