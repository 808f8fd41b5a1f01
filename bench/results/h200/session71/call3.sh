#!/usr/bin/env bash
# Session 71, call 3 (on the warm H100 of call 1, builds and carry as call1.sh's header): call 1's posv step for
# s71c ran out of its 60 s compiling a cold cache (rc 124 at TestPosv/float32/Lower/n=40, nothing failed), so it
# runs again here with 150 s; then call1.sh's A/B, the three builds in turns on native:cta.
for b in s71 s71c s71c4; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s71"
step posv-s71c 150 "$PWD/internal/gpu/posv" "$PWD/build/gpu/s71c/posv.test" -test.v -test.run '^TestPosv$/^float32$'
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic" "$L/posv-s71c.log"
stop_if_failed posv-s71c
for turn in 1 2; do
	for b in s71 s71c s71c4; do
		cli=$PWD/build/gpu/$b/batchlas
		step "ab-$b-$turn" 30 "$PWD" "$cli" bench -suite cholesky-gpumode -arms auto -cases 'n=128/batch=256$' -count 5 -time 20ms
		step "sat-$b-$turn" 60 "$PWD" bash -c "for u in L U; do for nb in 128/256 128/4096 256/256 256/4096 96/4096; do
			'$cli' bench potrf -dtype float32 -uplo \$u -n \${nb%/*} -batch \${nb#*/} -arms native:cta -count 5 -time 50ms
		done; done
			'$cli' bench potrf -dtype float32 -uplo U -n 64 -batch 1024 -arms native:warp,native:cta -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo U -n 256 -batch 64 -arms native:tiled:prec=tf32x3,native:cta -count 5 -time 50ms"
	done
done
grep -H "^| potrf" "$L"/ab-*.log
grep -HE "^Benchmark" "$L"/sat-*.log
call_report
exit 0
