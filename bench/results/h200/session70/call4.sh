#!/usr/bin/env bash
# Session 70's call 4 (the same warm H100 after call 3), as run (one command line): racecheck on TestPotrf's
# complex64 and complex128 Upper cases n = 31 and 32 by s70f, cut by its 140 s in complex128 n = 31.
# carry ["build/gpu/s70f.tar.xz"].
tar -C build/gpu -xJf build/gpu/s70f.tar.xz 2>/dev/null; cd internal/gpu/potrf && export XDG_CACHE_HOME=$(cd ../../.. && pwd)/build/kcache; nvidia-smi --query-gpu=name --format=csv > $OUT/gpu.txt; timeout 140 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 ../../../build/gpu/s70f/potrf.test -test.v -test.run '^TestPotrf$/^(complex128|complex64)$/^Upper$/^n=(32|31)$' > $OUT/racecheck-reg.log 2>&1; echo "rc $?" >> $OUT/racecheck-reg.log; grep -E "^\s*--- |RACECHECK|^rc" $OUT/racecheck-reg.log
