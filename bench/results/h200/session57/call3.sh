#!/usr/bin/env bash
# Session 57 call 3 (nothing carried): lab/stamps.py, where a tile step of chol_tiled's chain goes in the committed
# kernel (globaltimer stamps per task; the one-block 3xTF32 kernels of the suite's chains), Upper at the five chain
# cases, then Lower at two.
. scripts/device-steps.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
git rev-parse HEAD >"$L/commit.txt" 2>/dev/null || true
step stamps-U 200 "$PWD" env OUT="$L" python3 bench/results/h200/session57/lab/stamps.py
step stamps-L 120 "$PWD" env OUT="$L" UPLO=L CASES=512x16,1024x4,4096x1 python3 bench/results/h200/session57/lab/stamps.py
cat "$L/gpu.txt" "$L/stages.txt" "$L/stamps-U.log" "$L/stamps-L.log"
