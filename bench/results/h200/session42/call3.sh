#!/usr/bin/env bash
# Session 42 call 3. build/gpu: as call 2 but posv.test and potrf.test rebuilt (TestWarpKernelResources sizes the
# split kernels' packed tile; TestSplitBytes); build/kcache.txz: session 41's cache and call 2's.
#  1. posv's TestPosv float64 (call 2's pattern did not select it: go test splits -run on '/'), potrf's
#     TestWarpKernelResources; racecheck on TestPosv float64 n = 57, 64 and TestPotrfWarp float64 n = 64.
#  2. tune, one deadline (SIGINT lets tune finish its point): potrf float64 n = 64 on the tables' grid (native:warp is
#     new there), both triangles, the tables' options; posv and potrs float64 n = 64, both triangles, 1, 4, 16 rhs.
set -u
R=$PWD; W=/tmp/s42; L=$W/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; touch $W/start3
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/t42*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s42c3.tar.xz -C $W logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tests
(cd internal/gpu/potrf && run res 100 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestSplitBytes)$') &
(sleep 5; cd internal/gpu/posv && run posv 150 $B/posv.test -test.v -test.run '^TestPosv$/^float64$') &
wait
step race
(cd internal/gpu/posv && run race 110 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/^float64$/^(Lower|Upper)$/^n=(57|64)$')
(cd internal/gpu/potrf && run racef 40 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run '^TestPotrfWarp$/^float64$/^(Lower|Upper)$/^n=64$')
DEADLINE=575
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 20 $left $B/batchlas tune "$@" --device cuda:0 --out build/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune t42a potrf --dtype float64 --n 64 --batch 65536,16384,4096,1024,256,64,16,8,4,2,1 --uplo L,U --inputs gpumode --max-mib 4096 --time 20ms --count 3
tune t42b posv --dtype float64 --n 64 --uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3
tune t42c potrs --dtype float64 --n 64 --uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3
step done; pack
(cd build/kcache && find . -type f -newer $W/start3 | tar cJf $OUT/kc42c.txz -T -)
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|worst" $L/posv.log $L/res.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/res.log | head -3; grep -hc "0 B local" $L/res.log; grep -h "split" $L/res.log | cut -c1-170
grep -h "RACECHECK SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/race.log $L/racef.log
for f in $L/t42*/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-150; done
