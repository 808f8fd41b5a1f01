#!/usr/bin/env bash
# Session 41 call 5: why posv_warp keeps float64 Upper in place below NC = 48 (warp.cu's posv_wide), session 39's
# call 2 measured again (its logs were lost). build/gpu/batchlas: the working tree's CLI; batchlas-allwide: the same
# with allwide.patch (float64 through the wide tile from NC = 36 too). bench posv float64 Upper, 65,536 systems, 1 rhs,
# native:fused, n = 36, 40, 44 (the patch's kernels) and 48 (the same kernel in both), each CLI twice, interleaved.
set -u
R=$PWD; W=/tmp/s41; L=$W/logs5; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { tar cJf $OUT/s41c5.tar.xz -C $W logs5; }
for round in 1 2; do
  for bin in batchlas batchlas-allwide; do
    for n in 36 40 44 48; do
      echo "## $bin round=$round posv float64 uplo=U n=$n nrhs=1 batch=65536" >> $L/ab.log
      timeout 40 $B/$bin bench posv -device cuda:0 -dtype float64 -uplo U -n $n -nrhs 1 -batch 65536 -arms native:fused -time 50ms -count 5 >> $L/ab.log 2>&1
      echo "rc $?" >> $L/ab.log
    done
    pack
  done
done
awk '/^## /{c=$2" n="substr($7,3)} /^BenchmarkPosv/{v[c]=v[c]" "$3} END{for(k in v) print k, v[k]}' $L/ab.log | sort -k2,2 -k1,1
grep -c "^rc 0" $L/ab.log
