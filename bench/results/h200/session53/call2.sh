#!/usr/bin/env bash
# Session 53's call 3, with build/gpu/s53q carried after build2.sh: factor_quarters in chol_tiled's Upper 3xTF32
# kernel for four blocks only. cholblocked's tests (-test.short: resources under CUDA 13, the tiled and blocked
# conformance and accuracy), racecheck on that kernel at n = 97, and the suite's ten chol_tiled cases with the
# committed CLI and the candidate's, alternated twice. Run with timeout_s 400.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s53q
step() { # name timeout dir command...
  local name=$1 limit=$2 dir=$3; shift 3
  echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
  (cd $dir && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
C=$R/internal/gpu/cholblocked
step tests 120 $C $B/cand/cholblocked.test -test.v -test.short \
  -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestConformance)$'
step race 60 $C /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
  $B/cand/cholblocked.test -test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=4$/^Upper$/^n=97$'
TILED='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1)$'
for r in 1 2; do for v in head cand; do
  step suite-$v$r 50 $R $B/$v/batchlas bench -suite cholesky-gpumode -arms auto -cases "$TILED" -count 3 -time 300ms
done; done
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|B local" $L/tests.log | grep -v " 0 B local" | head -12
grep -E "chol_tiled<float, 32, 128, true, true, false, 4>" $L/tests.log | head -2
grep -h "SUMMARY\|^ok\|^PASS\|^FAIL" $L/race.log | tail -3
paste <(grep -E "^\| potrf|geomean" $L/suite-head1.log | awk -F'|' '{print $2, $3}') \
      <(grep -E "^\| potrf|geomean" $L/suite-cand1.log | awk -F'|' '{print $3}') \
      <(grep -E "^\| potrf|geomean" $L/suite-head2.log | awk -F'|' '{print $3}') \
      <(grep -E "^\| potrf|geomean" $L/suite-cand2.log | awk -F'|' '{print $3}')
