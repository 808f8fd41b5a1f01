#!/usr/bin/env bash
# Session 43 call 8: after posv.cu's publish helper (one store loop for the four sweeps): lab/sass.py (the SASS of all
# 512 posv.cu kernels against 939c50b's), then posv's TestPosv float32 and float64 on the working tree's posv.test.
set -u
R=$PWD; W=/tmp/s43; L=$W/logs8; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
run sass 150 python3 bench/results/h200/session43/lab/sass.py
cd internal/gpu/posv
run f32 170 $B/posv.test -test.v -test.run '^TestPosv$/^float32$' &
(sleep 3; run f64 170 $B/posv.test -test.v -test.run '^TestPosv$/^float64$') &
wait
tar cJf $OUT/s43c8.tar.xz -C $W logs8
tail -5 $L/sass.log
grep -h "worst\|^--- \|^    --- \|^ok\|^PASS\|^FAIL\|^rc" $L/f32.log $L/f64.log | cut -c1-160
grep -h "posv_test.go" $L/f32.log $L/f64.log | grep -v worst | head -5
