#!/usr/bin/env bash
# Session 59, call 8: native:tiled:occ=3:prec=tf32x3 (chol_tiled built for three blocks a multiprocessor, from
# lab/occ3.py's rp) as a candidate, built by
#   scripts/device-build build/gpu/s59c -p occ3-call8.patch cholblocked:./internal/gpu/cholblocked
# (394ef77 and the patch; carry ["build/gpu/s59c"]):
#  1. cholblocked's tiled and resource tests (occ=3 among them) and racecheck (tiled_checks), and racecheck on the
#     three-block kernel (3xTF32 Upper, n = 97);
#  2. lab/occ3.py on Lower (the committed tree's blocked.cu edited as the patch does);
#  3. through the public Potrf, the suite's chol_tiled cases by each split tiled candidate, pinned, side by side.
. scripts/device-steps.sh
record "$PWD/build/gpu/s59c"
tiled_checks
step race-occ3 60 "$PWD/internal/gpu/cholblocked" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
	"$B/cholblocked.test" -test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=3$/^Upper$/^n=97$'
stop_if_failed race-occ3
step lab-L 90 "$PWD" env UPLO=L python3 bench/results/h200/session59/lab/occ3.py
step suite-arms 200 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode \
	-arms native:tiled:prec=tf32x3,native:tiled:occ=4:prec=tf32x3,native:tiled:occ=3:prec=tf32x3 \
	-cases 'n=(1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1)$' -count 3 -time 300ms
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)|tiled<float, 32, 128, (true|false), true, false, 3>" "$L/tests.log" | head -12
grep -h "SUMMARY\|^ok\|^PASS\|^FAIL\|hazard\|no tests" "$L"/race-*.log | tail -8
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/lab-L.log" | tail -16
grep -E "^\| " "$L/suite-arms.log"
