#!/usr/bin/env bash
# session 23 call 4: the committed posv_warp (no lab options): checks, a mutant, timing, posv tune rows n = 48, 64
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $L/gpu.txt
B=$R/build/gpu31
cd $R/internal/gpu/potrf
timeout 120 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/c4-warp-resources.log 2>&1; echo "rc $?" >> $L/c4-warp-resources.log
timeout 90 $B/potrf.test -test.short -test.run 'TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance' -test.v > $L/c4-warp-check.log 2>&1; echo "rc $?" >> $L/c4-warp-check.log
timeout 70 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/c4-posvwarp-timing.log 2>&1
cd $R/internal/gpu/posv
timeout 120 $B/posv.test -test.skip Timing -test.v > $L/c4-posv-check.log 2>&1; echo "rc $?" >> $L/c4-posv-check.log
timeout 40 $B/posv-mutant.test -test.run 'TestPosv$/float32' > $L/c4-posv-mutant.log 2>&1; echo "rc $?" >> $L/c4-posv-mutant.log
timeout 40 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/c4-posv-timing.log 2>&1
cd $R
timeout 100 $B/batchlas tune posv --device cuda --dtype float32 --n 48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/c4-tune-posv.log 2>&1
cd $OUT && tar cJf c4.tar.xz logs && rm -rf logs && ls -la $OUT
