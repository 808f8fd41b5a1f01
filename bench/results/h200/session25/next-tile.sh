#!/usr/bin/env bash
# For the next session: time Posv float32 Upper with columns not on 16 bytes (posv_warp through its
# tile, routed since session 25 without a timing) against posv_cta, which served it before. Build
# here: cp bench/results/h200/session25/zz_tile_test.go.txt internal/gpu/posv/zz_tile_test.go &&
# CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go test -c -trimpath -ldflags='-s -w' -o build/gpuN/posv.test
# ./internal/gpu/posv && rm internal/gpu/posv/zz_tile_test.go; run this from the repository root
# on the GPU machine with B set (about 30 s). If posv_cta wins, send Upper Posv and Potrs on
# unaligned columns back to the CTA tier together (posv.Posv and posv.Potrs), so X stays the same
# bits from both.
set -u
R=$PWD; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
cd $R/internal/gpu/posv
timeout 90 $R/${B:-build/gpuN}/posv.test -test.run 'TestZZPosvUpperTile' -test.v > $OUT/posv-upper-tile.log 2>&1
