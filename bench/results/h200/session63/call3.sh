#!/usr/bin/env bash
# Session 63, call 3: potrf_reg's column loops stepped through an opaque pointer with one end a lane
# (steps.patch), on the GPU. Built here by
#   scripts/device-build build/gpu/s63p -p bench/results/h200/session63/steps.patch potrf:./internal/gpu/potrf
# with build/gpu/s63 (HEAD's CLI, scripts/device-build build/gpu/s63) beside it; carry both.
# Steps: the lab (head against new: bits, residuals, times, 20 cases over the four types), the potrf package's
# GPU tests of the register tier with the patch (resources of every instantiation, TestPotrf, tiny pivots,
# conformance, checks), memcheck and racecheck on a part of TestPotrf, the suite's n32 b4096 case by both CLIs
# in turns, and TestRegVariants (potrf_reg against potrf_reg_min's bounds) with the patch.
. scripts/device-steps.sh
record "$PWD/build/gpu/s63p"
P=$PWD/internal/gpu/potrf CS=/usr/local/cuda/bin/compute-sanitizer
step lab-reg 150 "$PWD" python3 bench/results/h200/session63/lab/reg.py
step tests 200 "$P" "$B/potrf.test" -test.run 'TestKernelResources|TestPotrf$|TestPotrfTinyPivots|TestConformance|TestChecks' -test.v
SUB='TestPotrf$/(float32|complex128)/(Lower|Upper)/n=(7|8|31|32)$'
step memcheck 60 "$P" $CS --tool memcheck --error-exitcode 9 "$B/potrf.test" -test.run "$SUB"
step racecheck 60 "$P" $CS --tool racecheck --error-exitcode 9 "$B/potrf.test" -test.run "$SUB"
for r in 1 2; do
	step suite-head-$r 40 "$PWD" build/gpu/s63/batchlas bench -suite cholesky-gpumode -arms auto -cases 'n=32/batch=4096$' -count 5 -time 300ms
	step suite-new-$r 40 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases 'n=32/batch=4096$' -count 5 -time 300ms
done
step variants 90 "$P" "$B/potrf.test" -test.run TestRegVariants -potrf.variants float32/32/4096,float32/32/65536,float32/8/65536 -test.v
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -v "^compiled\|registers, local" "$L/lab-reg.log"
grep -E "^(--- FAIL|FAIL|ok|PASS)|ERROR SUMMARY|RACECHECK SUMMARY" "$L"/tests.log "$L"/memcheck.log "$L"/racecheck.log | head -20
grep -hE "^\| potrf|^BenchmarkSuite" "$L"/suite-*.log
grep -E "ns|µs|median" "$L/variants.log" | head -30
