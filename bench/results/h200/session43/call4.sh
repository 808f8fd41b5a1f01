#!/usr/bin/env bash
# Session 43 call 4, on the final sources. build/gpu: batchlas, posv.test, potrf.test of the working tree (tri_solve by
# halves, potrs_split for every float64 NC, Posv's solveApart); batchlas-head: HEAD ef4232a's CLI.
#  1. potrf's TestWarpKernelResources, TestWarpArguments, TestPotrsCTAMatchesWarp, TestWarpConformance,
#     TestSplitBytes; posv's TestPosv float32 and float64, TestConformance, TestSolveApart.
#  2. compute-sanitizer: memcheck and racecheck on TestPotrsCTAMatchesWarp float64; memcheck on TestPosv float64
#     Lower n = 48, 56 and Upper n = 40 (the two launches).
#  3. A/B of the CLIs, float64, 65,536 systems: potrs and posv where the change reaches.
#  4. tune potrs and posv float64 n = 48, 64, both triangles, the tables' grid.
set -u
R=$PWD; L=$OUT/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
step() { echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tests
(cd internal/gpu/potrf && run warp 170 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestWarpArguments|TestPotrsCTAMatchesWarp|TestWarpConformance|TestSplitBytes)$') &
(sleep 5; cd internal/gpu/posv && run posv 170 $B/posv.test -test.v -test.run '^TestPosv$/^(float32|float64)$' &&
  run posvconf 60 $B/posv.test -test.v -test.run '^(TestConformance|TestSolveApart)$') &
wait
step sanitize
(cd internal/gpu/potrf && P='^TestPotrsCTAMatchesWarp$/^float64$' &&
 run memf 70 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.v -test.run "$P";
 run racef 90 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run "$P")
(cd internal/gpu/posv && run mem 50 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/^float64$/^Lower$/^n=(48|56)$' &&
 run memu 30 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/^float64$/^Upper$/^n=40$')
step ab
ab() {
  for s in "potrs L 40 1" "potrs L 48 1" "potrs L 48 16" "potrs U 48 16" "potrs L 64 1" "potrs L 64 16" \
           "posv L 48 16" "posv L 56 12" "posv U 48 8" "posv U 48 16" "posv L 64 16"; do
    set -- $s
    echo "## $1 float64 uplo=$2 n=$3 nrhs=$4 batch=65536"
    timeout 30 $B/$BIN bench $1 -device cuda:0 -dtype float64 -uplo $2 -n $3 -nrhs $4 -batch 65536 -arms native:fused -time 50ms -count 5
  done
}
run ab-head 60 bash -c "$(declare -f ab); B=$B BIN=batchlas-head ab"
run ab-new 60 bash -c "$(declare -f ab); B=$B BIN=batchlas ab"
DEADLINE=575
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 15 $left $B/batchlas tune "$@" --device cuda:0 --dtype float64 --n 48,64 --uplo L,U --nrhs 1,4,16 \
    --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3 --out $L/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune t43a potrs
tune t43b posv
step done
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/posv.log $L/posvconf.log $L/warp.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -hc "0 B local" $L/warp.log; grep -h "potrs_split" $L/warp.log | cut -c1-150 | head -4
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/memf.log $L/racef.log $L/mem.log $L/memu.log
for f in ab-head ab-new; do echo "== $f"; awk '/^## /{c=$2" "$4" "$5" "$6} /^Benchmark/{v[c]=v[c]" "$3/1000} END{for(k in v) print k, v[k]}' $L/$f.log | sort; done
for f in $L/t43*/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-120; done
