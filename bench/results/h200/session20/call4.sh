#!/usr/bin/env bash
# Session 20 calls 4 and 5 (the same command twice: call 4 stopped at its time limit after 43 of the 60 float32
# rows, call 5 resumed from the journal it kept and measured the other 17): the float32 rows n = 256…8192 with
# --resume (build/t28's journal lacked them), the occ=4 candidates among them. Carry build/gpu3.txz, build/kc4.txz,
# build/t28. Call 5 ran it with timeout 380; call 5's own tune.log was overwritten by the cp (build/t28 held call
# 4's copy), so tune-bench.log.xz (the tune's benchmark log, both calls) and the journal are its record.
set -u; R=$PWD; tar xJf build/gpu3.txz -C build; B=$R/build/gpu3
mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null; export XDG_CACHE_HOME=$R/build/kcache
timeout 480 $B/batchlas tune potrf --device cuda --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 \
  --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t28 --time 20ms --count 3 > $OUT/tune.log 2>&1
echo "tune rc $?"; tail -4 $OUT/tune.log; cp build/t28/* $OUT/; grep -c float32 build/t28/potrf.sm_90.journal
