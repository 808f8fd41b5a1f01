#!/usr/bin/env bash
# Session 69's call 2 on, one part by card (device-steps.sh's call_part: PART names one outright), on call 1's
# build (build/gpu/s69, 5aa3538), carry ["build/gpu/s69"]:
#  - suite (an H200): call1.sh's suite part (the cholesky-gpumode suite whole, then the tables' float32 posv rows
#    n = 64 and the Lower potrs and posv rows n = 8, 16, 32 for tuned/).
#  - any other card: where the issue slots of the 16 MiB cases' kernels go (call 1 had their counters and
#    occupancy): Nsight Compute's per-reason stall ratios (warps stalled per issued instruction) for the suite's
#    auto arm at n32 b4096, n64 b1024 and n128 b256 (potrf_reg, potrf_warp, potrf_cta).
. scripts/device-steps.sh
record "$PWD/build/gpu/s69"
case $(call_part other) in
suite) exec env PART=suite bash bench/results/h200/session69/call1.sh ;;
other)
	NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
	M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__average_warp_latency_per_inst_issued.ratio
	for r in barrier long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle \
		no_instruction not_selected selected dispatch_stall membar branch_resolving drain imc_miss misc sleeping tex_throttle; do
		M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
	done
	for c in 32/batch=4096 64/batch=1024 128/batch=256; do
		name=stalls-$(echo "$c" | tr '/=' '__')
		step "$name" 60 "$PWD" "$NCU" --target-processes all -k regex:potrf --launch-skip 3 --launch-count 1 \
			--metrics "$M" "$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases "n=$c\$" -count 1 -time 10ms
	done
	for f in "$L"/stalls-*.log; do echo "== $f"; grep -E "^  [a-z]|^    [a-z]|rc " "$f" | grep -v "  0$\|  0.00$" ; done
	;;
esac
call_report
exit 0
