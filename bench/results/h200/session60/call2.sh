#!/usr/bin/env bash
# Session 60, call 2: the device's CUDA 13 NVRTC and cuobjdump brought back (xz, in pieces of 15 MiB: the device
# returns at most 8 files of 16 MiB), so that the development machine can compile blocked.cu as the device does
# (NVRTC 12.4 does not predict CUDA 13's stack frames: session 59); and, in case those do not run there, the Lower
# three-block kernel (session59/lab/occ3L.py's rp) compiled here with -lineinfo, its cubin and SASS kept.
# Few files on purpose: everything but the pieces goes into report.tgz.
set -u
R=$OUT/report
mkdir -p "$R/cubins" "$OUT/cuda13"
nvidia-smi --query-gpu=name,driver_version --format=csv >"$R/gpu.txt" 2>&1
ls -laL /usr/local/cuda/lib64/libnvrtc* /usr/local/cuda/bin/cuobjdump /usr/local/cuda/bin/nvdisasm >"$R/cuda-ls.txt" 2>&1
cat /usr/local/cuda/version.json >"$R/cuda-version.txt" 2>&1
(cd /usr/local/cuda && tar -cf - lib64/libnvrtc.so* lib64/libnvrtc-builtins.so* bin/cuobjdump 2>"$R/tar.err" |
	xz -T16 -6 | split -b 15M - "$OUT/cuda13/cuda13.tar.xz.")
ls -la "$OUT/cuda13" >>"$R/cuda-ls.txt"
(COMPILE_ONLY=1 VARIANTS=rp NVRTC_OPTS=-lineinfo CUBINS=$R/cubins timeout 200 python3 bench/results/h200/session59/lab/occ3L.py >"$R/occ3L.log" 2>&1; echo "rc $?" >>"$R/occ3L.log")
for c in "$R"/cubins/*.cubin; do
	timeout 60 /usr/local/cuda/bin/nvdisasm -g -c "$c" >"${c%.cubin}.sass" 2>&1
done
grep -n "STL\|LDL" "$R"/cubins/*.sass >"$R/local-ops.txt" 2>&1
grep -v "^compiled" "$R/occ3L.log"; wc -l "$R/local-ops.txt"; head -40 "$R/local-ops.txt"; cat "$R/cuda-ls.txt" "$R/tar.err"
tar -C "$OUT" -czf "$OUT/report.tgz" report && rm -rf "$R"
ls -la "$OUT" "$OUT/cuda13"
