#!/usr/bin/env bash
# Session 21 call 1: globaltimer stamps per task in chol_tiled's float32 split kernels (prof21.py), then the whole
# cholesky-gpumode suite with the embedded tables (session 20's), all four arms in one run.
set -u
R=$PWD; tar xJf build/gpu4.txz -C build; mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
CUBINS=$R/build CASES=Ux1x4096x1x1,Lx1x4096x1x1,Ux1x4096x1x4,Ux1x2048x2x1,Ux1x1024x4x1 timeout 150 python3 bench/results/h200/session21/prof21.py > $OUT/prof.log 2>&1; echo "prof rc $?"; cat $OUT/prof.log
timeout 400 build/gpu4/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,native,auto > $OUT/suite.log 2>&1; echo "suite rc $?"; tail -22 $OUT/suite.log
tar cJf $OUT/kc5.txz -C build/kcache . 2>/dev/null; ls -la $OUT
