#!/usr/bin/env bash
# Session 36 call 4: complex Potrf at n = 2048 and 4096, which call 1 left out because the host check was cubic on one
# core (the bench now forms each SPD input's columns and sums the check's columns on every core: internal/bench
# cases.go, oracle.CholeskyResidual). build/gpu36/batchlas rebuilt with that; call 1's journal carried (build/t36).
#  1. batchlas tune potrf --resume on the union grid: only the new points (n = 2048 at 1 and 4, 4096 at 1, up to
#     256 MiB a batch) are measured, and the complex tables are written from the whole journal.
set -u
R=$PWD; L=/tmp/s36/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kc36a.txz -C build/kcache; B=$R/build/gpu36
pack() { cp build/t36/potrf* build/t36/index.txt $L/ 2>/dev/null; tar cJf $OUT/s36c4.tar.xz -C /tmp/s36 logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 20 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tune; run tune 480 $B/batchlas tune potrf --device cuda:0 --dtype complex64,complex128 \
  --n 8,16,32,48,64,96,128,256,512,1024,2048,4096 --batch 1,4,16,64,256,1024,4096,16384,65536 \
  --max-mib 256 --out build/t36 --time 20ms --count 3 --resume
step done; pack
cat $L/stages.txt; tail -4 $L/tune.log; wc -l build/t36/potrf.sm_90.journal
grep -hE "^L  (1024|2048|4096) " build/t36/potrf.complex*.sm_90.txt | cut -c1-200
