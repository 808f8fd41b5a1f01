#!/usr/bin/env bash
# Session 21 call 4 (branch chain): TestTiming's tiled arms (chain and ChainShared side by side with cuSOLVER, -test.v
# this time), chainvar.py (CUDA 13's NVRTC: the chain kernels' local memory for three forms of chain_task's fetches,
# and the SASS of the branch's), then racecheck on one TestPotrfTiled case for main's binary and the branch's.
set -u
R=$PWD; tar xJf build/gpu5.txz -C build; tar xJf build/gpu4.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
cd internal/gpu/cholblocked
timeout 150 $R/build/gpu5/blocked.test -test.run 'TestTiming$' -test.v -blocked.cases 512x16,1024x4,2048x2,4096x1,2048x8 -blocked.arms none > $OUT/timing.log 2>&1; echo "timing rc $?"
grep -E "^\s+n[0-9]+ b[0-9]+ " $OUT/timing.log | tail -5 | cut -c1-900
cd $R
mkdir -p $OUT/sass
NAMES=bench/results/h200/session21/names-chain.txt NVRTC=/usr/local/cuda/lib64/libnvrtc.so CUOBJDUMP=/usr/local/cuda/bin/cuobjdump CUBINS=$R/build JOBS=3 SASS=$OUT/sass \
  timeout 120 python3 bench/results/h200/session21/chainvar.py > $OUT/chainvar.log 2>&1; echo "chainvar rc $?"; cat $OUT/chainvar.log | tail -16
cd internal/gpu/cholblocked
CS=/usr/local/cuda/bin/compute-sanitizer
for b in gpu4 gpu5; do
  timeout 100 $CS --tool racecheck $R/build/$b/blocked.test -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Lower$/^n=97$' -test.v > $OUT/racecheck-$b.log 2>&1; echo "racecheck $b rc $?"; tail -2 $OUT/racecheck-$b.log
done
xz -9 $OUT/sass/*.txt
