#!/usr/bin/env bash
# Session 20's third call (prepared): the float32 rows n = 256…8192 measured again with --resume (the journal
# build/t28 lacks them: session 19 removed them), the new candidates among them; then the tables from the journal.
set -u
R=$PWD
tar xJf build/gpu3.txz -C build && B=$R/build/gpu3
mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
timeout 560 $B/batchlas tune potrf --device cuda --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 \
  --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t28 --time 20ms --count 3 > $OUT/tune.log 2>&1
echo "tune rc $?"; tail -5 $OUT/tune.log; cp build/t28/* $OUT/
