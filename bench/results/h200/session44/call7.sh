#!/usr/bin/env bash
# Session 44 call 7, call 5's binaries (the final sources): potrf's TestPotrsCTAMatchesWarp and TestWarpConformance,
# posv's TestPosv float32 (warp.cu's float kernels share the module).
set -u
R=$PWD; L=$OUT/logs7; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
(cd internal/gpu/potrf && run warp 200 $B/potrf.test -test.v -test.run '^(TestPotrsCTAMatchesWarp|TestWarpConformance)$') &
(sleep 2; cd internal/gpu/posv && run posv 200 $B/posv.test -test.v -test.run '^TestPosv$/^float32$') &
wait
grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/warp.log $L/posv.log | sort | uniq -c
cd $OUT && tar -cJf call7-logs.tar.xz logs7 && rm -rf logs7
