#!/usr/bin/env bash
# Session 51's call (prepared; no device was lent), with build/gpu/s51 carried after build.sh: package matbatch's
# tests on the GPU (gonum matrices through a GPU batch: round trips, DownloadSym, Cholesky after the GPU's Potrf);
# posv's tests with the 300 s that session 50 found TestPosv needs (compile-bound); `batchlas run` against NumPy on
# the GPU with the package's own .npy reader and writer. About 6 minutes; run with timeout_s 480.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s51
step() { # name timeout dir command...
  local name=$1 limit=$2 dir=$3; shift 3
  echo "=== $name $(date +%T) ${SECONDS}s" >> $L/stages.txt
  (cd $dir && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
}
cp $B/commit $L/commit.txt
step matbatch 60 $R/matbatch $B/matbatch.test -test.v
step posv 300 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^(TestArguments|TestPosv|TestConformance)$'
step run-numpy 120 $R python3 scripts/run-numpy-check $B/batchlas -device cuda
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|no GPU" $L/matbatch.log $L/posv.log | sort | uniq -c | head -20
grep -c "^ok " $L/run-numpy.log; grep "^FAIL" $L/run-numpy.log | head
