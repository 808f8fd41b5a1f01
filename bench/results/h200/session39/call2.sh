#!/usr/bin/env bash
# Session 39 call 2, the same binaries as call 1 (build/gpu), call 1's kernel cache (build/kcache.txz).
#  1. A/B, HEAD's CLI and this tree's: posv float64 Upper n = 36, 40, 44, 65,536 systems, 1 rhs (call 1: the wide tile
#     lost at n = 40 and won at 48 for float64).
#  2. racecheck on TestPosv float32 Upper n = 31, 32, 64 and float64 Upper n = 48, the test name anchored (call 1's
#     pattern also ran TestPosvTiming, which ran past the limit).
#  3. tune posv and potrs, float32 and float64, Lower, on the tables' grid, --max-mib 2048 (the Lower rows are from
#     sessions 7 to 30; 65,536 float64 systems of n = 48 and 64 were over the 1024 MiB of those runs), into build/t39l.
#  4. tune posv, float32 and float64, Upper, n = 48 and 64 (posv_warp's wide tile); tune potrs float64 Upper n = 48 and
#     64 (the rows over 1024 MiB), --max-mib 2048, into build/t39u and build/t39p.
set -u
R=$PWD; W=/tmp/s39; L=$W/logs2; mkdir -p $L build/kcache build/t39l build/t39u build/t39p; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in t39l t39u t39p; do mkdir -p $L/$d; cp build/$d/* $L/$d/ 2>/dev/null; done; tar cJf $OUT/s39c2.tar.xz -C $W logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
ab() { # ab BIN
  for n in 36 40 44; do
    echo "## posv float64 uplo=U n=$n nrhs=1 batch=65536"
    timeout 60 $B/$BIN bench posv -device cuda:0 -dtype float64 -uplo U -n $n -nrhs 1 -batch 65536 -arms native:fused -time 50ms -count 5
  done
}
step ab
run ab-head 60 bash -c "$(declare -f ab); B=$B BIN=batchlas-head ab"
run ab-new 60 bash -c "$(declare -f ab); B=$B BIN=batchlas ab"
step race
cd internal/gpu/posv
run race32 100 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/float32/Upper/^n=(31|32|64)$'
run race64 60 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/float64/Upper/^n=48$'
cd $R
step tune-lower
G="--nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3"
run tune-posv-l 200 $B/batchlas tune posv --device cuda:0 --dtype float32,float64 --uplo L --n 4,8,16,32,48,64,96,128 $G --out build/t39l
step tune-potrs-lower
run tune-potrs-l 140 $B/batchlas tune potrs --device cuda:0 --dtype float32,float64 --uplo L --n 4,8,16,32,48,64 $G --out build/t39l
step tune-upper
run tune-posv-u 80 $B/batchlas tune posv --device cuda:0 --dtype float32,float64 --uplo U --n 48,64 $G --out build/t39u
run tune-potrs-u 40 $B/batchlas tune potrs --device cuda:0 --dtype float64 --uplo U --n 48,64 $G --out build/t39p
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^## |arm=native" $L/ab-head.log $L/ab-new.log | awk '{print $1, $2, $3, $4, $5}'
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL\|Race" $L/race32.log $L/race64.log | tail -12
grep -h " - \| -$" $L/t39*/*.sm_90.txt | head
