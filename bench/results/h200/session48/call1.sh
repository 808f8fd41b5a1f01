#!/usr/bin/env bash
# Session 48, call 1 (prepared, not run: no machine was lent); nothing to carry:
#  1. lab/factor.py: the diagonal factor alone on one block (factor_rows, factor_subblocks, factor_quarters with named
#     barriers or mbarriers, the inverse overlapped or after, and built for four blocks a multiprocessor), cycles a
#     call, with and without the inverse; every variant's bits against factor_rows' on 25 inputs;
#  2. lab/chain.py: chol_tiled with each form (named, mbar, mbar4) against the tree's at the suite's ten one- and
#     four-block cases, µs, residuals, bits against head's;
#  3. racecheck on the factor lab (three inputs, one repetition), each form of factor_quarters in a run of its own.
# About 5 minutes; run with timeout_s 600. Logs tarred into $OUT/logs1.tgz after each step.
R=$PWD
L=$OUT/logs1; mkdir -p $L/factor
CS=/usr/local/cuda/bin/compute-sanitizer
step() { # name timeout command...
  local name=$1 limit=$2; shift 2
  echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
  timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log
  tar -C $OUT -czf $OUT/logs1.tgz logs1
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
step factor 120 env OUT=$L/factor python3 bench/results/h200/session48/lab/factor.py
step chain 240 env CUBINS=/tmp python3 bench/results/h200/session48/lab/chain.py
for v in quarters mbar full; do
  step race-factor-$v 90 env OUT=/tmp CASES_MAX=3 REPS=1 ONLY=$v $CS --tool racecheck --print-limit 10 python3 bench/results/h200/session48/lab/factor.py
done
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "NVRTC|REG:" $L/factor.log; grep -E "^  inverse|agree|BAD|DIFFERS" $L/factor.log | head -20
grep -E "regs|^n[0-9]|every|BAD" $L/chain.log | head -70
for v in quarters mbar full; do echo "## racecheck $v"; grep -h "SUMMARY\|agree\|BAD" $L/race-factor-$v.log | tail -3; done
