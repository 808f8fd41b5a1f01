#!/usr/bin/env bash
# Session 30 call 2: the potrf tables' rows n = 56, both types and triangles, new (float64 n = 53…56 is in the warp
# tier, but n = 56 went by the n = 64 rows to the CTA tier): --resume over session 29's whole journal (build/t30),
# the grid with 56 added. Kernel cache from call 1 (build/kcache.txz). First lab/lab2.py: Posv's two launches against
# posv_cta where posv_warp would spill.
set -u
R=$PWD; L=/tmp/s30c2/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache 2>/dev/null
B=$R/build/gpu30
pack() { cp build/t30/* $L/ 2>/dev/null; tar cJf $OUT/s30c2.tar.xz -C /tmp/s30c2 logs; }
timeout 100 python3 bench/results/h200/session30/lab/lab2.py > $L/lab2.log 2>&1; echo "rc $?" >> $L/lab2.log
pack; timeout 420 $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 \
  --n 8,16,32,48,56,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U \
  --max-mib 256 --inputs gpumode --out build/t30 --time 20ms --count 3 > $L/tune-potrf.log 2>&1; echo "rc $?" >> $L/tune-potrf.log
pack; cat $L/lab2.log; tail -4 $L/tune-potrf.log; grep -hE "^[LU]  56" $L/potrf.float64.sm_90.txt $L/potrf.float32.sm_90.txt | cut -c1-90
