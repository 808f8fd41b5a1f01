#!/usr/bin/env bash
# Session 70's call 3 (the H100 of call 2, warm, 197 s of device time left), as run (one command line):
# racecheck on TestPotrfCTA's float32 and complex128 cases n = 127 and 128 in both triangles, by call 2's s70f
# (eager2.patch). carry ["build/gpu/s70f.tar.xz"].
mkdir -p $OUT && tar -C build/gpu -xJf build/gpu/s70f.tar.xz && cd internal/gpu/potrf && export XDG_CACHE_HOME=/work/../$PWD/../../../build/kcache; export XDG_CACHE_HOME=$(cd ../../.. && pwd)/build/kcache; nvidia-smi --query-gpu=name --format=csv > $OUT/gpu.txt; cat ../../../build/gpu/s70f/commit > $OUT/commit.txt; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 ../../../build/gpu/s70f/potrf.test -test.v -test.run '^TestPotrfCTA$/^(float32|complex128)$/^(Upper|Lower)$/^n=(127|128)$' > $OUT/racecheck-cta.log 2>&1; echo "rc $?" >> $OUT/racecheck-cta.log; grep -E "^\s*--- |RACECHECK|^rc" $OUT/racecheck-cta.log
