#!/usr/bin/env bash
# Session 20's second call (prepared): side by side in one process per binary, the suite's cases the new arms
# compete in: the tiled driver at both occupancies and the blocked driver's tiled panels (branch: factor_rows in
# the panel kernels), then the same panel arm from main's binary (batchlas-main) on the panel cases.
set -u
R=$PWD
tar xJf build/gpu3.txz -C build && B=$R/build/gpu3
mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
timeout 330 $B/batchlas bench -suite cholesky-gpumode -cases 'n=(512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=1)([^0-9]|$)' \
  -arms vendor,vendor:transposed,native:tiled,native:tiled:occ=4,native:tiled:prec=tf32x3,native:tiled:occ=4:prec=tf32x3 > $OUT/tiled-arms.log 2>&1; echo "tiled rc $?"; tail -24 $OUT/tiled-arms.log
timeout 130 $B/batchlas bench -suite cholesky-gpumode -cases 'n=(4096/batch=2|8192/batch=1|16384/batch=1)([^0-9]|$)' \
  -arms vendor:transposed,native:blocked:panels=tiled:prec=tf32x3 > $OUT/panels-branch.log 2>&1; echo "panels rc $?"; tail -10 $OUT/panels-branch.log
timeout 130 $B/batchlas-main bench -suite cholesky-gpumode -cases 'n=(4096/batch=2|8192/batch=1|16384/batch=1)([^0-9]|$)' \
  -arms vendor:transposed,native:blocked:panels=tiled:prec=tf32x3 > $OUT/panels-main.log 2>&1; echo "panels-main rc $?"; tail -10 $OUT/panels-main.log
