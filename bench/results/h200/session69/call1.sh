#!/usr/bin/env bash
# Session 69's call 1, one part by card (device-steps.sh's call_part: PART names one outright). Built here by
#   scripts/device-build build/gpu/s69 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
# (5aa3538, HEAD), carry ["build/gpu/s69"].
#  - suite (an H200): the cholesky-gpumode suite whole by s69's CLI (session 67's float32 three-block rows and
#    session 68's float32 posv_split in its tables), then the float32 posv rows n = 64 (t-posv64, both triangles),
#    and the Lower potrs and posv rows n = 8, 16, 32 of float32, complex64 and complex128 (t-potrs, t-posv to the
#    end) for tuned/.
#  - any other card: racecheck on TestPotrf's complex128 cases n = 31 and 32 in both triangles (session 68's call 12
#    was cut inside them at 120 s), then Nsight Compute's counters and warp states for the suite's auto arm at
#    n32 b4096, n64 b1024 and n128 b256 (native:tiny, native:warp, native:cta): where the 16 MiB cases' time goes.
. scripts/device-steps.sh
record "$PWD/build/gpu/s69"
case $(call_part other) in
suite)
	lower=(--uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 --max-mib 2048 --batch 1024,16384,65536)
	gpumode_suite
	tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
	tune_op t-potrs 130 potrs "${lower[@]}"
	tune_op t-posv end posv "${lower[@]}"
	;;
other)
	step racecheck 300 "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
		--error-exitcode 9 "$B/potrf.test" -test.v -test.run '^TestPotrf$/^complex128$/^(Upper|Lower)$/^n=(31|32)$'
	stop_if_failed racecheck
	grep -h "^        --- \|RACECHECK SUMMARY" "$L/racecheck.log"
	NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
	echo "ncu: $NCU" >>"$L/stages.txt"
	M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.avg.per_cycle_active,sm__cycles_active.avg,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__occupancy_limit_registers
	for c in 32/batch=4096 64/batch=1024 128/batch=256; do
		name=ncu-$(echo "$c" | tr '/=' '__')
		step "$name" 45 "$PWD" "$NCU" --target-processes all -k regex:potrf --launch-skip 3 --launch-count 1 \
			--metrics "$M" --section WarpStateStats --section Occupancy \
			"$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases "n=$c\$" -count 1 -time 10ms
	done
	for f in "$L"/ncu-*.log; do echo "== $f"; grep -vE "^==PROF==|^Benchmark|^ok|^PASS" "$f" | grep -E "^ {2,4}[a-zA-Z]|stall|Stall|rc " | head -60; done
	;;
esac
call_report
exit 0
