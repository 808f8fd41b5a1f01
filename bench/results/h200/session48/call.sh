#!/usr/bin/env bash
# Session 48's call (prepared, not run: no machine was lent), with build/gpu/s48 carried after build.sh:
#  1. lab/factor.py: the diagonal factor alone on one block (factor_rows, factor_subblocks, factor_quarters with named
#     barriers or mbarriers, the inverse overlapped or after), cycles a call, bits against factor_rows;
#  2. lab/chain.py: chol_tiled with each form against the tree's at the suite's one-block cases (and two four-block
#     controls), µs, residuals, bits against head's;
#  3. racecheck on the factor lab (three inputs, one repetition) for every variant;
#  4. for each form's cholblocked.test: TestKernelResources (CUDA 13: registers, no local memory), TestPotrfTiled
#     (-test.short), TestConformanceTiled, TestAccuracyTiled, TestPrefixTasks, TestSplitStages; then racecheck on
#     TestPotrfTiled float32 (exact and 3xTF32) Upper and Lower at n = 97, as session 34 ran it.
# About 9 minutes; run with timeout_s 600. Logs tarred into $OUT/logs.tgz after each step.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L/factor
B=$R/build/gpu/s48
CS=/usr/local/cuda/bin/compute-sanitizer
step() { # name timeout dir command...
  local name=$1 limit=$2 dir=$3; shift 3
  echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
  (cd $dir && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
step factor 120 $R env OUT=$L/factor python3 bench/results/h200/session48/lab/factor.py
step chain 200 $R python3 bench/results/h200/session48/lab/chain.py
step race-factor 120 $R env OUT=/tmp CASES_MAX=3 REPS=1 $CS --tool racecheck --print-limit 20 python3 bench/results/h200/session48/lab/factor.py
for form in named mbar; do
  step tests-$form 150 $R/internal/gpu/cholblocked $B/$form/cholblocked.test -test.v -test.short \
    -test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages)$'
  for u in Upper Lower; do
    for p in '^float32$/^3xTF32$' '^float32$'; do
      tag=$form-$(echo "$u$p" | tr -dc 'A-Za-z0-9')
      step race-$tag 45 $R/internal/gpu/cholblocked $CS --tool racecheck --error-exitcode 9 $B/$form/cholblocked.test \
        -test.short -test.v -test.run "TestPotrfTiled/$p/^$u\$/^n=97\$"
    done
  done
done
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "NVRTC|REG:" $L/factor.log; grep -E "^  inverse|agree|BAD|DIFFERS" $L/factor.log | head -20
grep -E "regs|^n[0-9]|every|BAD" $L/chain.log | head -60
grep -h "SUMMARY\|hazard" $L/race-factor.log | tail -5
for form in named mbar; do grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" $L/tests-$form.log | head -12; done
for f in $L/race-*.log; do echo "## $f"; grep -h "SUMMARY\|^ok\|^PASS\|^FAIL" $f | tail -3; done
