#!/usr/bin/env bash
# session 24 call 1: potrf_warp vs posv_warp nrhs=0 (lab), ncu of posv_warp n=64 nrhs=16 (main), wip/posv-mform checks and timing
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $L/gpu.txt
B=$R/build/gpu40
cd $R/internal/gpu/potrf
timeout 60 $B/potrf-main.test -test.run 'TestZZPosvZero' -test.v > $L/c1-zero.log 2>&1; echo "rc $?" >> $L/c1-zero.log
NCU=/usr/local/cuda/bin/ncu
ZZ_N=64 ZZ_NRHS=16 timeout 150 $NCU --launch-count 1 -k regex:posv_warp --section WarpStateStats --section SourceCounters --section InstructionStats --section SpeedOfLight --section Occupancy --section LaunchStats --import-source no -f -o $R/build/r1 $B/potrf-main.test -test.run TestZZPosvProf > $L/c1-ncu.log 2>&1; echo "ncu rc $?" >> $L/c1-ncu.log
$NCU --import $R/build/r1.ncu-rep --page details > $L/c1-ncu-details.txt 2>&1
$NCU --import $R/build/r1.ncu-rep --page source --csv --print-source sass > $R/build/s1.csv 2>/dev/null
python3 $R/build/lab24/stalls.py $R/build/s1.csv > $L/c1-stalls.txt 2>&1
xz -c $R/build/s1.csv > $L/c1-source.csv.xz
timeout 120 $B/potrf-mform.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/c1-mform-resources.log 2>&1; echo "rc $?" >> $L/c1-mform-resources.log
timeout 70 $B/potrf-mform.test -test.run 'TestPosvWarpTiming' -test.v > $L/c1-mform-posvwarp-timing.log 2>&1
timeout 70 $B/potrf-main.test -test.run 'TestPosvWarpTiming' -test.v > $L/c1-main-posvwarp-timing.log 2>&1
cd $R/internal/gpu/posv
timeout 150 $B/posv-mform.test -test.skip Timing -test.v > $L/c1-mform-posv-check.log 2>&1; echo "rc $?" >> $L/c1-mform-posv-check.log
cd $OUT && tar cJf c1.tar.xz logs && rm -rf logs && ls -la $OUT
