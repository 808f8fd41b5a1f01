#!/usr/bin/env bash
# Session 56 call 4 (carry ["build/gpu/s56"], the CLI of a047c93: cta-forms.patch landed, calls 2-3's rows merged):
# the cholesky-gpumode suite whole (float32; its n = 512, 1024, 2048 rows re-tuned in call 3), then float32 n = 4096
# re-tuned as call 3 did the smaller four-block orders, if the time allows it whole.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s56
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step suite 200 $R $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
grep -q H200 $L/gpu.txt || { echo "not an H200: no tunes" >> $L/stages.txt; BUDGET=0; }
step_to_end t-float32-4096 $R $B/batchlas tune potrf --device cuda:0 --uplo L,U --time 20ms --count 3 --dtype float32 --n 4096 \
	--batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --max-mib 256 --inputs gpumode --out $L/t-float32-4096
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "^\| (potrf|geomean)" $L/suite.log
for f in $L/t-*/potrf.*.txt; do grep -E "^[LU] " $f | cut -c1-110; done
