#!/usr/bin/env bash
# Session 36 call 1: complex Potrf against the vendor on the H200. There is no complex sm_90 table, so every complex
# call took the op's default order (the first native tier that can run it) without a measurement behind it.
#  1. batchlas tune potrf, complex64 and complex128, Lower (Upper borrows), n = 8…1024, 1…65,536 matrices up to
#     256 MiB a batch, default inputs (host-checked, hence n ≤ 1024), into build/t36; stopped by SIGINT before the
#     call's limit, so that the journal is whole and call 2 goes on with --resume.
# Built here: build/gpu36/batchlas (CGO_ENABLED=0, -trimpath -ldflags='-s -w'); no kernel cache (fresh checkout).
set -u
R=$PWD; L=/tmp/s36/logs1; mkdir -p $L build/kcache build/t36; export XDG_CACHE_HOME=$R/build/kcache
touch /tmp/s36/start1; B=$R/build/gpu36
pack() { cp build/t36/* $L/ 2>/dev/null; tar cJf $OUT/s36c1.tar.xz -C /tmp/s36 logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 20 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $L/gpu.txt 2>&1
step tune; run tune 530 $B/batchlas tune potrf --device cuda:0 --dtype complex64,complex128 \
  --n 8,16,32,48,64,96,128,256,512,1024 --batch 1,4,16,64,256,1024,4096,16384,65536 \
  --max-mib 256 --out build/t36 --time 20ms --count 3
step done; pack
tar cJf $OUT/kc36a.txz -C build/kcache .
cat $L/stages.txt; tail -5 $L/tune.log; wc -l build/t36/*.journal
grep -E "^(L|U) " build/t36/potrf.complex*.sm_90.txt 2>/dev/null | cut -c1-200
