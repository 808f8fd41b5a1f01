#!/usr/bin/env bash
# Session 37 call 2: posv_cta and potrs_cta solve with the warp tier's steps (sweeps.cu), a warp per half of the
# right-hand sides, instead of a row per thread with a block barrier a step. build/gpu: batchlas, posv.test and
# potrf.test of the working tree (cta.cu, sweeps.cu, warp.cu); build/gpuold/batchlas: HEAD bfbf66f, for the A/B;
# build/tuned: session 36's posv and potrs journals without their n = 48 and 64 points (every such point is complex).
#  1. tests, in parallel: posv (kernel resources, TestPosv, conformance; all four types), potrf (the CTA and warp
#     kernel resources, potrs_cta against potrs_warp bit for bit, the CTA conformance).
#  2. A/B: bench the old and new native:fused against the vendor on five complex shapes, old and new interleaved.
#  3. tune posv and potrs, complex, --resume: only the n = 48 and 64 points are measured.
#  4. racecheck and memcheck on potrs_cta (float32, the bit test) and posv_cta (complex128 Posv, n = 48 and 63).
set -u
R=$PWD; L=$OUT/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
step() { echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 20 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tests
(cd internal/gpu/posv && run posv 330 $B/posv.test -test.run 'TestKernelResources|TestPosv$|TestConformance' -test.v) &
(cd internal/gpu/potrf && run potrf 330 $B/potrf.test -test.run 'TestCTAKernelResources|TestWarpKernelResources|TestPotrsCTAMatchesWarp|TestCTAConformance|TestCTAArguments' -test.v) &
wait
step ab
for rep in 1 2; do for bin in gpuold gpu; do
  for c in "potrs complex128 48 16 1024" "potrs complex128 64 1 16384" "potrs complex64 48 1 16384" "potrs complex64 64 16 16384" "posv complex128 64 16 16384"; do
    set -- $c
    echo "### $bin rep $rep: $c" >> $L/ab.log
    timeout 60 build/$bin/batchlas bench $1 -device cuda -dtype $2 -n $3 -nrhs $4 -batch $5 -arms vendor,native:fused -count 5 >> $L/ab.log 2>&1
  done
done; done
step tune
run tune-potrs 150 $B/batchlas tune potrs --device cuda:0 --dtype complex64,complex128 --n 4,8,16,32,48,64 --nrhs 1,4,16 \
  --batch 1024,16384,65536 --max-mib 1024 --out build/tuned --time 20ms --count 3 --resume
run tune-posv 200 $B/batchlas tune posv --device cuda:0 --dtype complex64,complex128 --n 4,8,16,32,48,64,96,128 --nrhs 1,4,16 \
  --batch 1024,16384,65536 --max-mib 1024 --out build/tuned --time 20ms --count 3 --resume
cp build/tuned/* $L/
step sanitizers
for tool in racecheck memcheck; do
  (cd internal/gpu/potrf && run potrf-$tool 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 \
    $B/potrf.test -test.run 'TestPotrsCTAMatchesWarp/float32')
  (cd internal/gpu/posv && run posv-$tool 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 \
    $B/posv.test -test.run 'TestPosv$/complex128/Lower/n=(48|63)$')
done
step done
tar cf - -C build/kcache . | xz -6 -T0 > $OUT/kcache.txz
cat $L/stages.txt; grep -hE "^(--- FAIL|FAIL|ok|PASS)|rc " $L/*.log | sort | uniq -c
grep -E "^(### |ratio)" $L/ab.log | head -60
