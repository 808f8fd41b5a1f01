#!/usr/bin/env bash
# Session 22 call 4 (call 3's build, and tiled panels never with the side stream): the float32 rows n = 8192 at one
# matrix, both triangles, measured again with --resume (removed from session 20's journal), then the suite's n = 4096 and
# 8192 one-matrix cases with the vendor arms, auto (the embedded tables) and the two leading native candidates.
set -u
R=$PWD; tar xJf build/gpu9.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
cp -r build/t29 $OUT/t29
timeout 200 build/gpu9/batchlas tune potrf --device sm_90 --resume --dtype float32 --n 8192 --batch 1 --uplo L,U --max-mib 256 --inputs gpumode --out $OUT/t29 --time 20ms --count 3 > $OUT/tune.log 2>&1; echo "tune rc $?"; tail -5 $OUT/tune.log; grep "n=8192" $OUT/t29/potrf.sm_90.journal | cut -c1-400
timeout 240 build/gpu9/batchlas bench -suite cholesky-gpumode -cases 'n=(4096|8192)/batch=1$' -arms vendor,vendor:transposed,auto,native:tiled:occ=4:prec=tf32x3,native:blocked:panels=tiled:prec=tf32x3,native:tiled:prec=tf32x3 > $OUT/suite.log 2>&1; echo "suite rc $?"; tail -6 $OUT/suite.log
rm -f $OUT/t29/potrf.sm_90.bench.log.gz; ls -la $OUT $OUT/t29
