#!/usr/bin/env bash
# Session 31 call 1: chol_tiled's prefix tasks (blocked.cu's Prefix). Binaries build/gpu31 (built here: blocked.test
# and batchlas from the working tree, old/batchlas from main at 4ebf6b3), session 30's kernel cache (what this call compiles comes back as kc31.txz).
#  1. TestKernelResources and TestPrefixTasks (every cholblocked kernel compiled afresh: registers, local memory),
#     in the background while
#  2. lab/prefix.py times the float32 one-block kernels (head, pre6, pre3, pre10);
#  3. the suite's one-matrix-and-few cases through the public Potrf, main's build then this one, three arms.
set -u
R=$PWD; L=/tmp/s31/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache 2>/dev/null; touch /tmp/s31/start
B=$R/build/gpu31
pack() { tar cJf $OUT/s31c1.tar.xz -C /tmp/s31 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step resources
(cd internal/gpu/cholblocked && run resources 250 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks' -test.v) &
step lab; CUBINS=/tmp run lab 250 python3 bench/results/h200/session31/lab/prefix.py
wait
C='n=(512/batch=16|1024/batch=4|2048/batch=2|4096/batch=[12]|8192/batch=1)$'
for b in old new; do
  bin=$B/batchlas; [ $b = old ] && bin=$B/old/batchlas
  step suite-$b; run suite-$b 140 $bin bench -suite cholesky-gpumode -cases "$C" -arms vendor,vendor:transposed,auto
done
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s31/start | tar cJf $OUT/kc31.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/*.log | head -20
grep -hE "chol_tiled" $L/resources.log | cut -c1-150 | head -40; grep -hE " [1-9][0-9]* B local" $L/resources.log | head
cat $L/lab.log | tail -30; tail -9 $L/suite-old.log; tail -9 $L/suite-new.log
