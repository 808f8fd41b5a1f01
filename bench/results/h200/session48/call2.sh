#!/usr/bin/env bash
# Session 48, call 2 (prepared, not run), with build/gpu/s48 carried after build.sh: for each form given (default
# named mbar; full and mbar4 in a call of their own, as call 1 decides), cholblocked's TestKernelResources (CUDA 13: registers, no local memory),
# TestPotrfTiled (-test.short), TestConformanceTiled, TestAccuracyTiled (-test.short), TestPrefixTasks,
# TestSplitStages, then racecheck on TestPotrfTiled float32 (exact and 3xTF32; mbar4: 3xTF32 at occ=4 too), Upper
# and Lower, n = 97, as session 34 ran it.
# First, if build.sh built them, the root package's tests of native:tiled's statuses (about 2 minutes).
# About 4 minutes a form; run with timeout_s 600. Logs tarred into $OUT/logs2.tgz after each step.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs2; mkdir -p $L
B=$R/build/gpu/s48
CS=/usr/local/cuda/bin/compute-sanitizer
step() { # name timeout command... (in internal/gpu/cholblocked)
  local name=$1 limit=$2; shift 2
  echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
  (cd $R/internal/gpu/cholblocked && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs2.tgz logs2
}
forms=${*:-named mbar}
# The native:tiled candidates without the statuses' memset (gpu_ops.go's storesEveryStatus): their statuses from
# garbage, the guard build (chol_tiled storing failures only: its native:tiled cases must FAIL), and the saving.
if [ -x $B/root.test ]; then
  rstep() { local name=$1 limit=$2; shift 2
    echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
    (cd $R && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log); tar -C $OUT -czf $OUT/logs2.tgz logs2; }
  rstep statuses-tiled 150 $B/root.test -test.v -test.run '^TestStatusesWritten$/^Potrf$/^native:tiled'
  rstep statuses-tiled-guard 120 $B/root-guard.test -test.v -test.run '^TestStatusesWritten$/^Potrf$/^native:tiled'
  rstep overhead-tiled 120 $B/root.test -test.v -overhead -test.run '^TestCallOverhead$/^Upper$/^n=(256|512)$'
  grep -hE "^(--- FAIL|FAIL|ok|PASS)" $L/statuses-tiled.log $L/statuses-tiled-guard.log | sort | uniq -c
  grep -h "µs per call" $L/overhead-tiled.log
fi
for form in $forms; do
  step tests-$form 150 $B/$form/cholblocked.test -test.v -test.short \
    -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages)$'
  pats=('^float32$/^3xTF32$' '^float32$')
  [ $form = mbar4 ] && pats+=('^float32$/^3xTF32$/^occ=4$')
  for u in Upper Lower; do
    for p in "${pats[@]}"; do
      tag=$form-$(echo "$u$p" | tr -dc 'A-Za-z0-9')
      step race-$tag 45 $CS --tool racecheck --error-exitcode 9 $B/$form/cholblocked.test \
        -test.short -test.v -test.run "TestPotrfTiled/$p/^$u\$/^n=97\$"
    done
  done
done
cat $L/stages.txt; grep -H "^rc " $L/*.log
for form in $forms; do grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" $L/tests-$form.log | head -12; done
for f in $L/race-*.log; do echo "## $f"; grep -h "SUMMARY\|^ok\|^PASS\|^FAIL" $f | tail -3; done
