#!/usr/bin/env bash
# Session 33 call 4: the tree as committed (build/gpu33b; blocked.cu differs from call 3's in comments only):
#  1. TestKernelResources, TestSplitStages, TestPrefixTasks;
#  2. the float32 potrf rows where the four-block split kernels lead or could (n = 512 at 16, 64, 256; 1024 at 8, 16,
#     64; 2048 at 2, 4, 8, 16; 4096 at 1, 2, 4; 8192 at 1; both triangles: 28 rows) removed from session 30's journal
#     (build/t33/potrf.sm_90.journal) and measured again by batchlas tune --resume over session 30's grid, which
#     writes the tables into build/t33;
#  3. the whole cholesky-gpumode suite, three arms, routed by those tables (BATCHLAS_TUNED_DIR);
#  4. racecheck on TestPotrfTiled float32 3xTF32 occ=4 Upper n = 97 (row pairs), if time is left.
set -u
R=$PWD; L=/tmp/s33/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31 kc31c kc32c kc33a; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
touch /tmp/s33/start4; B=$R/build/gpu33b; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { cp build/t33/* $L/ 2>/dev/null; tar cJf $OUT/s33c4.tar.xz -C /tmp/s33 logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/cholblocked
step resources; run resources 90 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages' -test.v
cd $R
step tune; run tune 240 $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 \
  --n 8,16,32,48,56,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U \
  --max-mib 256 --inputs gpumode --out build/t33 --time 20ms --count 3
step suite; BATCHLAS_TUNED_DIR=$R/build/t33 run suite 200 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
if [ $SECONDS -lt 440 ]; then
  cd internal/gpu/cholblocked
  step racecheck; run racecheck $((530 - SECONDS)) $CS --tool racecheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
    -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=4$/^Upper$/^n=97$'
  cd $R
fi
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s33/start4 | tar cJf $OUT/kc33b.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log | head
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; tail -3 $L/tune.log
grep -hE "^[LU]  (512|1024|2048|4096|8192) " build/t33/potrf.float32.sm_90.txt | cut -c1-140
grep -E "^\| (potrf|geomean)" $L/suite.log; grep -h "SUMMARY\|PASS\|FAIL" $L/racecheck.log 2>/dev/null | tail -5
