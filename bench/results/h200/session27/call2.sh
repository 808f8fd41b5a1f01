#!/bin/bash
# session 27 call 2: the suite's two small cases, main (old) and this change (new), twice interleaved; then the
# lab with the engine's NVRTC (CUDA 13.0) and, shorter, with CuPy's.
set -x
R=$PWD
cd build && tar xJf gpu27.txz && cd $R
for i in 1 2; do
  for b in old new; do
    bin=build/gpu27/batchlas; [ $b = old ] && bin=build/gpu27/old/batchlas
    timeout 120 $bin bench -suite cholesky-gpumode -cases 'n=(32/batch=4096|64/batch=1024)$' -arms auto > $OUT/suite-$b-$i.log 2>&1
    grep -E "^\| potrf|geomean" $OUT/suite-$b-$i.log
  done
done
cd build/lab27
timeout 240 python3 lab.py O E > $OUT/lab2-engine.log 2>&1; grep -v "regs, local 0 B" $OUT/lab2-engine.log | tail -40
NVRTC=cupy PLAN=short timeout 150 python3 lab.py O E > $OUT/lab2-cupy.log 2>&1; grep -v "regs, local 0 B" $OUT/lab2-cupy.log | tail -8
grep -E "potrf_warp<float, 64, false|potrf_warp<float, 64, true|posv_warp<float, 64|potrf_reg_min<float, 32|potrf_reg<float, 32, 32, true" $OUT/lab2-*.log
