#!/usr/bin/env bash
# Session 37 call 3 (the last of the session's device time): potrs_cta with its load of L eight loads in flight (call 2
# ran it one load at a time). build/gpu: batchlas, posv.test and potrf.test of the committed tree (fcfeb5b); build/tuned: session 36's potrs journal without its n = 48 and 64 points. Everything
# goes into one tarball, packed after each step (call 2 wrote more files than a call returns and lost some).
#  1. tests, in parallel: posv (kernel resources, TestPosv at n = 33…64 for the complex types, conformance), potrf
#     (CTA kernel resources, potrs_cta against potrs_warp bit for bit, CTA conformance and arguments).
#  2. tune potrs, complex, --resume: the n = 48 and 64 points, every timed result checked.
#  3. racecheck and memcheck on potrs_cta (float32, the bit test).
set -u
R=$PWD; W=/tmp/s37; L=$W/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { cp build/tuned/* $L/ 2>/dev/null; tar cJf $OUT/s37c3.tar.xz -C $W logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tests
(cd internal/gpu/posv && run posv 130 $B/posv.test -test.v -test.run \
  'TestKernelResources|TestPosv$/complex(64|128)/(Lower|Upper)/n=(3[3-9]|[4-6][0-9])|TestConformance') &
(cd internal/gpu/potrf && run potrf 130 $B/potrf.test -test.v -test.run \
  'TestCTAKernelResources|TestPotrsCTAMatchesWarp|TestCTAConformance|TestCTAArguments') &
wait
step tune
run tune-potrs 90 $B/batchlas tune potrs --device cuda:0 --dtype complex64,complex128 --n 4,8,16,32,48,64 --nrhs 1,4,16 \
  --batch 1024,16384,65536 --max-mib 1024 --out build/tuned --time 20ms --count 3 --resume
step sanitizers
for tool in racecheck memcheck; do
  (cd internal/gpu/potrf && run potrf-$tool 40 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 \
    $B/potrf.test -test.run 'TestPotrsCTAMatchesWarp/float32')
done
step done; pack
cat $L/stages.txt; grep -hE "^(--- FAIL|FAIL|ok|PASS)|rc |SUMMARY" $L/*.log | sort | uniq -c
