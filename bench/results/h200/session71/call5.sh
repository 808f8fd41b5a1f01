#!/usr/bin/env bash
# Session 71, call 5: eagerpiv.patch (potrf_reg's float64 Lower kernels keep the pivot scale predicated on the
# failure test, as before session 70: eager_pivots in potrf.cu; kernel-sass: those 8 kernels have 1aa54a2's SASS)
# built as s71p by
#   scripts/device-build build/gpu/s71p -p bench/results/h200/session71/eagerpiv.patch potrf:./internal/gpu/potrf
#   tar -C build/gpu -cJf build/gpu/s71p.tar.xz s71p
# carry ["build/gpu/s71p.tar.xz", "build/gpu/s71.tar.xz", "build/gpu/s71o.tar.xz"]. The potrf package's float64
# tests by s71p, then float64 Lower n = 24 and 32 at 65,536 by s71p, s71 and s71o, one turn.
for b in s71p s71 s71o; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s71p"
step tests 200 "$PWD/internal/gpu/potrf" "$PWD/build/gpu/s71p/potrf.test" -test.v \
	-test.run '^(TestPotrf|TestPotrfTinyPivots|TestChecks|TestConformance)$/^float64$'
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic" "$L/tests.log"
stop_if_failed tests
for b in s71p s71 s71o; do
	step "f64-$b" 40 "$PWD" bash -c "for n in 24 32; do
		'$PWD/build/gpu/$b/batchlas' bench potrf -dtype float64 -uplo L -n \$n -batch 65536 -arms native:tiny -count 5 -time 50ms
	done"
done
grep -HE "^Benchmark" "$L"/f64-*.log
call_report
exit 0
