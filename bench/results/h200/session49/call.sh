#!/usr/bin/env bash
# Session 49's call (prepared, not run: no machine was lent), with build/gpu/s49 carried after build.sh: the shared
# Potrf conformance suite now puts a matrix with a subnormal pivot (2⁻¹⁴⁰ for the 32-bit types, 2⁻¹⁰⁶⁰ for the
# others; conformance.cholMix, up to n = 255) in every batch; it must factor with info 0. The GPU tiers have not
# seen it in the shared suite: potrf's register, warp and CTA tiers (their own tests plant such pivots already),
# cholblocked's blocked driver and chol_tiled (not before; their 3xTF32 products run on tensor cores), and the
# router's choices through the public API (TestConformanceCUDA, Cholesky only). Then posv's tests, which carry the
# new nrhs bound (the argument check is CPU-side; TestPosv and TestConformance rerun the solves); the root package's
# TestReleased (Free twice must not hand one block to two batches; Info.Free, Pivots.Free, a closed queue; each
# Free now waits for the device first), TestEmptyBatches and TestOutOfMemory; and `batchlas run` on the GPU against
# NumPy (scripts/run-numpy-check with -device cuda).
# About 4 minutes; run with timeout_s 600. Logs tarred into $OUT/logs.tgz after each step.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
B=$R/build/gpu/s49
step() { # name timeout dir command...
  local name=$1 limit=$2 dir=$3; shift 3
  (cd $dir && timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
}
nvidia-smi --query-gpu=name,driver_version --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step potrf 200 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestConformance|TestWarpConformance|TestCTAConformance)$'
step cholblocked 240 $R/internal/gpu/cholblocked $B/cholblocked.test -test.v -test.run '^(TestConformance|TestConformanceTiled)$'
step root 240 $R $B/root.test -test.v -test.run '^TestConformanceCUDA$/.*/Cholesky'
step posv 200 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^(TestArguments|TestPosv|TestConformance)$'
step lifetimes 120 $R $B/root.test -test.v -test.run '^(TestReleased|TestEmptyBatches|TestOutOfMemory|TestStatusesWritten)$'
step run-numpy 120 $R python3 scripts/run-numpy-check $B/batchlas -device cuda
step devices 60 $R $B/batchlas devices
grep -hE "^(--- FAIL|FAIL|ok|PASS|rc)" $L/potrf.log $L/cholblocked.log $L/root.log $L/posv.log $L/lifetimes.log | sort | uniq -c | head -20
grep -c "^ok " $L/run-numpy.log; grep "^FAIL" $L/run-numpy.log | head
cat $L/devices.log
grep -h "tinypivot" $L/*.log | head -20
