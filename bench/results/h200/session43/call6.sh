#!/usr/bin/env bash
# Session 43 call 6, on the final sources. build/gpu: batchlas and posv.test of the working tree (posv.cu's
# solve_halves, and call 4's warp.cu, warp.go and posv.go's solveApart with its count edge); posv-guard.test: the same
# with factorThenSolve solving one column too few (logs/posvapart-guard.patch.txt; not landed).
#  1. posv's TestPosv (every type), TestKernelResources, TestConformance, TestPosvApart, TestSolveApart; then
#     TestPosvApart on posv-guard.test, which must fail.
#  2. compute-sanitizer memcheck and racecheck on TestPosv float32 and float64 Lower n = 17, 24, 32.
#  3. tune posv and potrs float32 and float64 n = 32 on the tables' grid; posv float64 n = 48 at 1,024 systems
#     (where solveApart's count edge keeps posv_warp).
set -u
R=$PWD; W=/tmp/s43; L=$W/logs6; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { tar cJf $OUT/s43c6.tar.xz -C $W logs6; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tests
cd internal/gpu/posv
run posv 200 $B/posv.test -test.v -test.run '^TestPosv$' &
(sleep 5; run res 200 $B/posv.test -test.v -test.run '^(TestKernelResources|TestConformance|TestPosvApart|TestSolveApart)$') &
wait
run guard 60 $B/posv-guard.test -test.v -test.run '^TestPosvApart$'
step sanitize
for t in float32 float64; do
  run mem-$t 60 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run "^TestPosv\$/^$t\$/^Lower\$/^n=(17|24|32)\$"
  run race-$t 60 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run "^TestPosv\$/^$t\$/^Lower\$/^n=(17|24|32)\$"
done
cd $R
DEADLINE=560
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 15 $left $B/batchlas tune "$@" --device cuda:0 --max-mib 2048 --time 20ms --count 3 --out $L/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune t43c posv --dtype float32,float64 --n 32 --uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536
tune t43d potrs --dtype float32,float64 --n 32 --uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536
tune t43e posv --dtype float64 --n 48 --uplo L,U --nrhs 1,4,16 --batch 1024
step done; pack
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/posv.log $L/res.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/res.log | head -3; grep -hc "0 B local" $L/res.log
grep -h "FAIL\|differs" $L/guard.log | head -5
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/mem-*.log $L/race-*.log
for f in $L/t43*/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-120; done
