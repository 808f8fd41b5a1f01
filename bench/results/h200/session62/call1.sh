#!/usr/bin/env bash
# Session 62's call: session 61's next-call.sh with the H100 branch reordered for a short budget (this session's
# refused requests left under 750 s of device time): offload.patch's lab, checks and turns first, lab/one.py last.
# Built by
#   scripts/device-build build/gpu/s62        (the committed tree's CLI, 3a892ce)
#   scripts/device-build build/gpu/s62o -p bench/results/h200/session61/offload.patch \
#     cholblocked:./internal/gpu/cholblocked
# carry ["build/gpu/s62", "build/gpu/s62o"]; BUDGET in the environment (what the device has left, less its start).
. scripts/device-steps.sh
record "$PWD/build/gpu/s62o"
if grep -q H200 "$L/gpu.txt"; then
	step suite 240 "$PWD" build/gpu/s62/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	step offload 160 "$PWD" python3 bench/results/h200/session61/lab/offload.py
	B=$PWD/build/gpu/s62 # the tables are the committed kernels'
	tune_gpumode float32 4096 2048 8192
	cat "$L/gpu.txt" "$L/stages.txt"
	grep -H "^rc " "$L"/*.log
	grep -E "^\| (potrf|geomean)" "$L/suite.log"
	grep -v "^compiled" "$L/offload.log" | tail -40
	for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
	exit 0
fi
step offload 160 "$PWD" python3 bench/results/h200/session61/lab/offload.py
tiled_checks
tiled_turns "$PWD/build/gpu/s62"
step one-U 90 "$PWD" env UPLO=U python3 bench/results/h200/session61/lab/one.py
grep -v "^compiled" "$L/offload.log" | tail -40
grep -v "^compiled" "$L/one-U.log" | tail -14
tiled_report
