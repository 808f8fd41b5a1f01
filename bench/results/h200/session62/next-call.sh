#!/usr/bin/env bash
# Prepared in session 62 for the next device session, built by
#   scripts/device-build build/gpu/s63        (the committed tree's CLI)
# carry ["build/gpu/s63"], kind nvidia-h200; BUDGET in the environment if less device time is left.
#  On an H200 (none lent in sessions 57 to 62): the cholesky-gpumode suite whole (the H200's last: session 55's
#  602.5 µs), then lab/one.py in both triangles (chol_one against native:cta where the H100 put it 9.3 % ahead, n = 128
#  at 256 matrices), then the float32 rows, both triangles, n = 4096, 2048, 8192 (the three-block candidate enters
#  the tables; the four-block kernels changed in session 61), to the end of the budget; merge on the development
#  machine with scripts/merge-tuned (whole orders).
#  On an H100: lab/one.py in both triangles over the batches between 64 and 1,024 matrices at n = 128 and 112, to
#  find where chol_one's window is (session 62: ahead at 256, 2 % behind at 64, 35 % behind at 1,024).
. scripts/device-steps.sh
record "$PWD/build/gpu/s63"
WINDOW=128x128,128x192,128x256,128x320,128x384,128x512,112x192,112x256,112x320
if grep -q H200 "$L/gpu.txt"; then
	step suite 240 "$PWD" build/gpu/s63/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	step one-U 90 "$PWD" env UPLO=U CASES=128x64,128x256,128x1024,$WINDOW python3 bench/results/h200/session61/lab/one.py
	step one-L 90 "$PWD" env UPLO=L CASES=128x256,$WINDOW python3 bench/results/h200/session61/lab/one.py
	tune_gpumode float32 4096 2048 8192
	cat "$L/gpu.txt" "$L/stages.txt"
	grep -H "^rc " "$L"/*.log
	grep -E "^\| (potrf|geomean)" "$L/suite.log"
	grep -hv "^compiled" "$L"/one-?.log | grep -v "regs,"
	for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
	exit 0
fi
step one-U 120 "$PWD" env UPLO=U CASES=$WINDOW python3 bench/results/h200/session61/lab/one.py
step one-L 120 "$PWD" env UPLO=L CASES=$WINDOW python3 bench/results/h200/session61/lab/one.py
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -hv "^compiled" "$L"/one-?.log | grep -v "regs,"
