#!/usr/bin/env bash
# Session 31 call 2: the prefix tasks with ahead = 10 and j, m read again from shared memory after the factor
# (build/gpu31 rebuilt; old/batchlas as in call 1), session 30's kernel cache and call 1's (kc31.txz).
#  1. TestKernelResources and TestPrefixTasks (every cholblocked kernel under CUDA 13), in the background while
#  2. lab/prefix.py times head against ahead = 10 (the tree), 6, 8 and 14;
#  3. the guard: nostore/blocked.test, whose prefix tasks store no sums, must fail TestPotrfTiled float32 n = 609, 641;
#  4. the suite's few-matrix cases through the public Potrf, this build then main's, three arms.
set -u
R=$PWD; L=/tmp/s31/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache 2>/dev/null; tar xJf build/kc31.txz -C build/kcache 2>/dev/null
B=$R/build/gpu31
pack() { tar cJf $OUT/s31c2.tar.xz -C /tmp/s31 logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step resources
(cd internal/gpu/cholblocked && run resources 200 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks' -test.v) &
step lab; CUBINS=/tmp AHEAD=10 AHEADS=6,8,14 REPS=7 \
  CASES=Ux1x4096x1,Lx1x4096x1,Ux1x2048x2,Lx1x2048x2,Ux1x1024x4,Ux0x1024x4,Ux0x512x16,Ux1x4096x1 \
  run lab 200 python3 bench/results/h200/session31/lab/prefix.py
wait
step guard; (cd internal/gpu/cholblocked && run guard 90 $B/nostore/blocked.test -test.run 'TestPotrfTiled/^float32$/.*/^n=(609|641)$' -test.v)
C='n=(512/batch=16|1024/batch=4|2048/batch=2|4096/batch=[12]|8192/batch=1)$'
for b in new old; do
  bin=$B/batchlas; [ $b = old ] && bin=$B/old/batchlas
  step suite-$b; run suite-$b 140 $bin bench -suite cholesky-gpumode -cases "$C" -arms vendor,vendor:transposed,auto
done
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/resources.log | head
grep -hE "chol_tiled<(float|double)" $L/resources.log | grep -v compiled | cut -c1-120 | head -24; grep -hE " [1-9][0-9]* B local" $L/resources.log | head
tail -14 $L/lab.log; grep -hE "^(--- FAIL|    --- FAIL|ok|PASS|FAIL)|worst" $L/guard.log | head -12
tail -9 $L/suite-new.log; tail -9 $L/suite-old.log
