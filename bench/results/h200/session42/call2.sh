#!/usr/bin/env bash
# Session 42 call 2. build/gpu: batchlas, posv.test, potrf.test of the working tree (float64 potrf_warp through
# potrf_split from NC = 60, potrs_warp through potrs_split from NC = 52, Posv above posv_warp in two launches);
# batchlas-head: HEAD 273040d's CLI. build/kcache.txz: session 41's kernel cache.
#  1. lab/bounds.py: potrf_split with __launch_bounds__(64, 6 and 7) against as committed; Posv's two launches.
#  2. ncu (PROF=1): potrf_split<double, 64, false> and potrs_split<double, 64, false> with 16 right-hand sides.
#  3. The GPU tests of what changed, in parallel: potrf's warp tests (TestWarpKernelResources first: every warp
#     kernel compiled anew) and TestPotrsCTAMatchesWarp; posv's TestPosv float64, TestConformance, TestKernelResources.
#  4. compute-sanitizer memcheck and racecheck: TestPosv float64 n = 49, 57, 64 and TestPotrfWarp float64 n = 57, 64.
#  5. A/B of the CLIs, float64, 65,536 systems, both triangles: potrs n = 49, 52, 56, 64 (1 and 16 rhs), posv n = 57,
#     64 (1, 4, 16 rhs), native:fused; potrf n = 64 native:warp (new only) and native:cta.
set -u
R=$PWD; W=/tmp/s42; L=$W/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; touch $W/start2
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { tar cJf $OUT/s42c2.tar.xz -C $W logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; run bounds 150 python3 bench/results/h200/session42/lab/bounds.py
step ncu
PROF=1 run ncu 90 $NCU -k regex:split --section SpeedOfLight --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis python3 bench/results/h200/session42/lab/bounds.py
step tests
(cd internal/gpu/potrf && run warp 300 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestWarpArguments|TestPotrfWarp|TestPotrfWarpFailures|TestWarpConformance|TestPotrsCTAMatchesWarp)$') &
(sleep 20; cd internal/gpu/posv && run posv 300 $B/posv.test -test.v -test.run '^(TestPosv/float64|TestConformance|TestKernelResources)$') &
wait
step sanitize
cd internal/gpu/posv
S='^TestPosv$/^float64$/^(Lower|Upper)$/^n=(49|57|64)$'
run mem 60 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run "$S"
run race 60 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run "$S"
cd $R/internal/gpu/potrf
run memf 40 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.v -test.run '^TestPotrfWarp$/^float64$/^(Lower|Upper)$/^n=(57|64)$'
cd $R
step ab
ab() { # ab BIN
  for u in L U; do
    for s in "potrs 49 1" "potrs 52 1" "potrs 52 16" "potrs 56 1" "potrs 64 1" "potrs 64 16" "posv 57 1" "posv 64 1" "posv 64 4" "posv 64 16"; do
      set -- $s
      echo "## $1 float64 uplo=$u n=$2 nrhs=$3 batch=65536"
      timeout 30 $B/$BIN bench $1 -device cuda:0 -dtype float64 -uplo $u -n $2 -nrhs $3 -batch 65536 -arms native:fused -time 50ms -count 5
    done
    echo "## potrf float64 uplo=$u n=64 batch=65536"
    timeout 30 $B/$BIN bench potrf -device cuda:0 -dtype float64 -uplo $u -n 64 -batch 65536 -arms $PARMS -time 50ms -count 5
  done
}
left=$((585 - SECONDS)); half=$(( (left - 10) / 2 ))
[ $half -gt 30 ] && { run ab-head $half bash -c "$(declare -f ab); B=$B BIN=batchlas-head PARMS=native:cta ab"; run ab-new $half bash -c "$(declare -f ab); B=$B BIN=batchlas PARMS=native:warp,native:cta ab"; }
step done; pack
(cd build/kcache && find . -type f -newer $W/start2 | tar cJf $OUT/kc42b.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -v "^ *$" $L/bounds.log | grep -v registers | head -20; grep -h "registers" $L/bounds.log | head -12
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/posv.log $L/warp.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/posv.log $L/warp.log | head -3; grep -hc "0 B local" $L/posv.log $L/warp.log
grep -h "split" $L/warp.log | cut -c1-160 | head -24
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/mem.log $L/race.log $L/memf.log | tail -12
paste <(grep -hE "^## |arm=" $L/ab-head.log | awk '{print $1,$2,$3,$4,$5,$6,$9}') <(grep -hE "^## |arm=" $L/ab-new.log | awk '{print $2,$9}') | head -60
