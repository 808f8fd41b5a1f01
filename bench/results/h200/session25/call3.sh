#!/usr/bin/env bash
# Session 25 call 3: the landed half-warp chunks (build/gpu52 from the working tree of the landing commit)
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu52; CS=/usr/local/cuda/bin/compute-sanitizer
cd $R/internal/gpu/potrf
timeout 150 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/resources.log 2>&1; echo "rc $?" >> $L/resources.log
timeout 60 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/posvwarp-timing.log 2>&1
cd $R/internal/gpu/posv
timeout 150 $B/posv.test -test.skip Timing -test.v > $L/posv-check.log 2>&1; echo "rc $?" >> $L/posv-check.log
timeout 150 $CS --tool racecheck $B/posv.test -test.run 'TestPosv$/float32/Lower/n=(33|48|49|64)$' > $L/racecheck.log 2>&1; echo "rc $?" >> $L/racecheck.log
timeout 150 $CS --tool memcheck $B/posv.test -test.run 'TestPosv$/float32/Lower/n=(33|48|49|64)$' > $L/memcheck.log 2>&1; echo "rc $?" >> $L/memcheck.log
timeout 40 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/posv-timing.log 2>&1
cd $R
timeout 100 $B/batchlas tune posv --device cuda --dtype float32 --n 48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/tune-posv.log 2>&1
timeout 100 $B/batchlas tune potrs --device cuda --dtype float32 --n 48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/tune-potrs.log 2>&1
cd $OUT && tar cJf c3.tar.xz logs && rm -rf logs
