#!/usr/bin/env bash
# Session 20 call 2: gpu_lab.py's variants (base, ldsm, ldsm2 at both occupancies, one process), then side by
# side in one process the suite's cases the tiled arms compete in, at both occupancies.
set -u
R=$PWD
tar xJf build/gpu3.txz -C build && B=$R/build/gpu3
mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
CUBINS=$R/build timeout 240 python3 bench/results/h200/session20/gpu_lab.py > $OUT/lab.log 2>&1; echo "lab rc $?"; cut -c1-400 $OUT/lab.log
timeout 330 $B/batchlas bench -suite cholesky-gpumode -cases 'n=(512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=1)([^0-9]|$)' \
  -arms vendor,vendor:transposed,native:tiled,native:tiled:occ=4,native:tiled:prec=tf32x3,native:tiled:occ=4:prec=tf32x3 > $OUT/tiled-arms.log 2>&1; echo "tiled rc $?"; tail -24 $OUT/tiled-arms.log
