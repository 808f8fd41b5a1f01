#!/usr/bin/env bash
# Session 46, call 1: the lab (cta.py: the new potrf_cta against HEAD's, checks and times)
# and the potrf package's CTA tests on the working tree's kernels (then lab/s1-cta.cu.xz's cta.cu, ctaPanel 8).
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
timeout 200 python3 bench/results/h200/session46/lab/cta.py > $L/lab-cta.log 2>&1; echo "lab rc $?" >> $L/lab-cta.log
(cd internal/gpu/potrf && timeout 300 $R/build/gpu/potrf.test -test.v -test.run 'CTA' > $L/potrf-cta.log 2>&1; echo "rc $?" >> $L/potrf-cta.log)
tar -C $OUT -czf $OUT/logs.tgz logs
tail -5 $L/lab-cta.log; grep -E "^(--- FAIL|FAIL|ok|PASS|rc)" $L/potrf-cta.log | head -20
