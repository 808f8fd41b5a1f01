#!/usr/bin/env bash
# Session 45 call 6: posv.go after call 5 (posvSplit takes Upper n = 33…36 from 4,096 systems; solveApart only Lower
# 49…56, what posvSplit leaves it). posv.test: TestPosvApart, TestPosvSplitChoice, TestSolveApart; TestPosv and
# TestConformance float64. No kernel changed since call 5.
set -u
R=$PWD; L=$OUT/logs6; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/posv
run apart 200 $B/posv.test -test.v -test.run '^(TestPosvApart|TestPosvSplitChoice|TestSolveApart)$' &
(sleep 2; run posv 250 $B/posv.test -test.v -test.run '^TestPosv$/^float64$'; run posvconf 120 $B/posv.test -test.v -test.run '^TestConformance$/^float64') &
wait
cd $OUT && tar -cJf call6-logs.tar.xz logs6
grep -H "^rc " logs6/*.log; grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* |^    --- (PASS|FAIL): TestPosvApart" logs6/*.log | sort | uniq -c
rm -rf logs6
