#!/usr/bin/env bash
# Session 42 call 6: float64 Upper potrf_warp from NC = 52 through potrf_split (the panels; call 4 measured them
# faster there). build/gpu: batchlas, posv.test, potrf.test of db18184 with lab/upper52.patch (and comments to
# match; not landed: README); batchlas-head: db18184's CLI.
#  1. potrf's TestWarpKernelResources, TestWarpArguments, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance;
#     posv's TestPosv float64; memcheck on TestPotrfWarp float64 Upper n = 49, 53, 56 and TestPosv float64 Upper
#     n = 49, 56; racecheck on TestPotrfWarp float64 Upper n = 56.
#  2. A/B, float64 Upper, 65,536: potrf n = 52, 56 (native:warp), posv n = 49, 56 (1 and 16 rhs), HEAD then now.
#  3. tune potrf float64 Upper n = 56 on the tables' grid, the tables' options.
set -u
R=$PWD; W=/tmp/s42; L=$W/logs6; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/v42*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s42c6.tar.xz -C $W logs6; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tests
(cd internal/gpu/potrf && run warp 130 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestWarpArguments|TestPotrfWarp|TestPotrfWarpFailures|TestWarpConformance)$') &
(sleep 10; cd internal/gpu/posv && run posv 130 $B/posv.test -test.v -test.run '^TestPosv$/^float64$') &
wait
step sanitize
(cd internal/gpu/potrf && run memf 40 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.v -test.run '^TestPotrfWarp$/^float64$/^Upper$/^n=(49|53|56)$' &&
 run racef 40 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run '^TestPotrfWarp$/^float64$/^Upper$/^n=56$')
(cd internal/gpu/posv && run mem 50 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/^float64$/^Upper$/^n=(49|56)$')
step ab
ab() {
  for s in "potrf 52 0" "potrf 56 0" "posv 49 1" "posv 56 1" "posv 56 16"; do
    set -- $s
    echo "## $1 float64 uplo=U n=$2 nrhs=$3 batch=65536"
    if [ $1 = potrf ]; then timeout 30 $B/$BIN bench potrf -device cuda:0 -dtype float64 -uplo U -n $2 -batch 65536 -arms native:warp -time 50ms -count 5
    else timeout 30 $B/$BIN bench posv -device cuda:0 -dtype float64 -uplo U -n $2 -nrhs $3 -batch 65536 -arms native:fused -time 50ms -count 5; fi
  done
}
run ab-head 60 bash -c "$(declare -f ab); B=$B BIN=batchlas-head ab"
run ab-new 60 bash -c "$(declare -f ab); B=$B BIN=batchlas ab"
step tune
left=$((330 - SECONDS)); [ $left -gt 10 ] && { timeout -s INT -k 20 $left $B/batchlas tune potrf --device cuda:0 --dtype float64 --n 56 --batch 65536,16384,4096,1024,256,64,16,8,4,2,1 --uplo U --inputs gpumode --max-mib 4096 --time 20ms --count 3 --out build/v42a > $L/v42a.log 2>&1; echo "rc $?" >> $L/v42a.log; }
step done; pack
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/posv.log $L/warp.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -hc "0 B local" $L/warp.log; grep -h "potrf_split" $L/warp.log | cut -c1-170
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/memf.log $L/racef.log $L/mem.log
for f in ab-head ab-new; do echo "== $f"; awk '/^## /{c=$2" "$4" "$5" "$6} /^Benchmark/{v[c]=v[c]" "$3/1000} END{for(k in v) print k, v[k]}' $L/$f.log | sort; done
for f in $L/v42*/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-150; done
