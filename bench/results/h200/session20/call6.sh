#!/usr/bin/env bash
# Session 20 calls 6 and 7: four cases of the suite with the tables of build/t28 (BATCHLAS_TUNED_DIR), arms vendor,
# vendor:transposed, auto. Call 6 carried build/t28 before call 5's tables were copied into it (the tables of the
# interrupted call 4, which had not rewritten them: session 19's), so its auto arm routed as before; call 7 carried
# call 5's tables.
R=$PWD; tar xJf build/gpu3.txz -C build; mkdir -p build/kcache && tar xJf build/kc4.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
BATCHLAS_TUNED_DIR=build/t28 timeout 100 build/gpu3/batchlas bench -suite cholesky-gpumode -cases 'n=(512/batch=640|1024/batch=60|2048/batch=8|4096/batch=1)([^0-9]|$)' \
  -arms vendor,vendor:transposed,auto > $OUT/suite-part.log 2>&1; echo rc $?; tail -9 $OUT/suite-part.log
