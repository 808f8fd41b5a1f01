#!/usr/bin/env bash
# Session 36 call 2: complex Posv and Potrs against the vendor on the H200 (no complex sm_90 tables: every complex call
# took the op's default order). Call 1's kernel cache (kc36a.txz) carried.
#  1. batchlas tune posv, complex64 and complex128, Lower, n = 4…128, 1, 4, 16 right-hand sides, 1,024…65,536 systems
#     up to 1 GiB a batch (the float grid of scripts/gpu-session tune-solve), into build/t36;
#  2. batchlas tune potrs, the same types, n = 4…64.
set -u
R=$PWD; L=/tmp/s36/logs2; mkdir -p $L build/kcache build/t36; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kc36a.txz -C build/kcache; touch /tmp/s36/start2; B=$R/build/gpu36
pack() { cp build/t36/* $L/ 2>/dev/null; tar cJf $OUT/s36c2.tar.xz -C /tmp/s36 logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 20 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step posv; run posv 330 $B/batchlas tune posv --device cuda:0 --dtype complex64,complex128 \
  --n 4,8,16,32,48,64,96,128 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t36 --time 20ms --count 3
step potrs; run potrs 200 $B/batchlas tune potrs --device cuda:0 --dtype complex64,complex128 \
  --n 4,8,16,32,48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t36 --time 20ms --count 3
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s36/start2 | tar cJf $OUT/kc36b.txz -T -)
cat $L/stages.txt; tail -3 $L/posv.log $L/potrs.log
grep -hE "^(L|U) " build/t36/posv.complex*.sm_90.txt build/t36/potrs.complex*.sm_90.txt 2>/dev/null | cut -c1-160
