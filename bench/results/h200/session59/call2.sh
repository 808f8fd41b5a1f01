#!/usr/bin/env bash
# Session 59, call 2 (the committed tree's CLI, carry ["build/gpu/s59"]; the lab compiles the working tree's
# blocked.cu with its edits):
#  1. lab/latency.py: a row-pair task's round trips in the four-block 3xTF32 Upper kernel (variants there).
#  2. Is chol_tiled's time at the batched mid sizes DRAM traffic or waiting? Nsight Compute's counters and warp
#     states for one chol_tiled launch at n512 b640 and n8192 b1 (the auto arm).
. scripts/device-steps.sh
record "$PWD/build/gpu/s59"
step lab 330 "$PWD" python3 bench/results/h200/session59/lab/latency.py
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >>"$L/stages.txt"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,sm__inst_executed.sum,smsp__inst_executed.avg.per_cycle_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
for c in 512/batch=640 8192/batch=1 1024/batch=60 2048/batch=8; do
	name=ncu-$(echo "$c" | tr '/=' '__')
	step "$name" 45 "$PWD" "$NCU" --target-processes all -k regex:chol_tiled --launch-skip 3 --launch-count 1 \
		--metrics "$M" --section WarpStateStats \
		"$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases "n=$c\$" -count 1 -time 10ms
done
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -vE "^ +chol_tiled|^[a-z0-9]+ \([0-9]+s\):$" "$L/lab.log" | tail -30
for f in "$L"/ncu-*.log; do echo "== $f"; grep -vE "^==PROF==|^Benchmark|^ok|^PASS" "$f" | grep -E "^ {4}[a-zA-Z]|stall|Stall|rc " | head -40; done
