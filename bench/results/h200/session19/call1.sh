#!/usr/bin/env bash
# Session 19 call 1: ncu on chol_tiled (3xTF32, n2048 b8 and n4096 b1, both triangles), a variant timing (main at 01bbaeb).
set -u
R=$PWD; B=$R/build/gpu2
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"; nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem --format=csv
stage ncu
for cs in L,1,2048,8 U,1,2048,8 L,1,4096,1; do
  tag=$(echo $cs | tr , _)
  CASE=$cs timeout 150 $NCU --launch-skip 1 --launch-count 1 -k regex:chol_tiled --set full --import-source no -f -o $R/build/r_$tag python3 build/lab19/prof.py > $R/build/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"; tail -3 $R/build/ncu_$tag.log
  $NCU --import $R/build/r_$tag.ncu-rep --page details > $R/build/d_$tag.txt 2>&1
  $NCU --import $R/build/r_$tag.ncu-rep --page source --csv --print-source sass > $R/build/s_$tag.csv 2>$R/build/s_$tag.err || $NCU --import $R/build/r_$tag.ncu-rep --page source --csv > $R/build/s_$tag.csv 2>>$R/build/s_$tag.err
  head -c 300 $R/build/s_$tag.err
  python3 build/lab19/top.py $R/build/s_$tag.csv > $R/build/t_$tag.txt 2>&1
done
tar cJf $OUT/ncu.txz -C $R/build d_L_1_2048_8.txt d_U_1_2048_8.txt d_L_1_4096_1.txt t_L_1_2048_8.txt t_U_1_2048_8.txt t_L_1_4096_1.txt ncu_L_1_2048_8.log 2>/dev/null
head -c 3000 $R/build/t_L_1_2048_8.txt
stage var; timeout 120 python3 build/lab19/var.py 2>&1 | tee $OUT/var.log | cut -c1-400
stage done
