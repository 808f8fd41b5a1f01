#!/usr/bin/env bash
# Session 60, calls 4 and 5: lab/quarters.py (factor_quarters in the four-block Lower kernel, both triangles'
# four-block kernels with its inverse bounded and its parity read at each wait; each compiled in its library
# module), on 8913efe's tree plus tiledlab's module argument. No carry (the lab compiles blocked.cu itself). Call 4
# stopped on a lab bug (the second build wrote its cubins over the first's; tiledlab.build now sets res's OUTDIR).
. scripts/device-steps.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
step quarters 400 "$PWD" env JOBS=2 python3 bench/results/h200/session60/lab/quarters.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -v "^compiled" "$L/quarters.log" | tail -45
