#!/usr/bin/env bash
# Session 43 call 7: posv's TestPosv complex64 and complex128 on call 6's posv.test (call 6's 200 s limit cut
# TestPosv during complex64, after float32 and float64 had passed every subtest).
set -u
R=$PWD; W=/tmp/s43; L=$W/logs7; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/posv
run c64 330 $B/posv.test -test.v -test.run '^TestPosv$/^complex64$' &
(sleep 3; run c128 330 $B/posv.test -test.v -test.run '^TestPosv$/^complex128$') &
wait
tar cJf $OUT/s43c7.tar.xz -C $W logs7
grep -h "worst\|^--- \|^    --- \|^ok\|^PASS\|^FAIL\|^rc" $L/c64.log $L/c128.log | cut -c1-160
grep -h "posv_test.go" $L/c64.log $L/c128.log | grep -v worst | head -5
