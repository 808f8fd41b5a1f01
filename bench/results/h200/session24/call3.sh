#!/usr/bin/env bash
# session 24 call 3: branch s24 (mform solve + potrs_warp): resources, checks, sanitizers, Posv vs vendor, tune potrs/posv n=48,64
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $L/gpu.txt
B=$R/build/gpu42; CS=/usr/local/cuda/bin/compute-sanitizer
st() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
cd $R/internal/gpu/potrf
st res; timeout 150 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/c3-resources.log 2>&1; echo "rc $?" >> $L/c3-resources.log
cd $R/internal/gpu/posv
st check; timeout 120 $B/posv.test -test.skip Timing -test.v > $L/c3-posv-check.log 2>&1; echo "rc $?" >> $L/c3-posv-check.log
st race; timeout 100 $CS --tool racecheck $B/posv.test -test.run 'TestPosv$/float32/Lower/n=(49|64)$' > $L/c3-racecheck.log 2>&1; echo "rc $?" >> $L/c3-racecheck.log
st mem; timeout 80 $CS --tool memcheck $B/posv.test -test.run 'TestPosv$/float32/Lower/n=(49|64)$' > $L/c3-memcheck.log 2>&1; echo "rc $?" >> $L/c3-memcheck.log
st vendor; timeout 40 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/c3-posv-timing.log 2>&1
cd $R
st tunepotrs; timeout 100 $B/batchlas tune potrs --device cuda --dtype float32 --n 48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/c3-tune-potrs.log 2>&1
st tuneposv; timeout 100 $B/batchlas tune posv --device cuda --dtype float32 --n 48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/c3-tune-posv.log 2>&1
st done
cd $OUT && tar cJf c3.tar.xz logs && rm -rf logs && ls -la $OUT
