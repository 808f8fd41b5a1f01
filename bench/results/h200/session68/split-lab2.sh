#!/usr/bin/env bash
# Session 68's second lab: split32b.patch (split32.patch's kernels; TestPosvWarpTiming times posv_split against
# posv_warp only, at 16,384 systems with 1 and 16 right-hand sides: Lower n = 57, 60, 61, Upper n = 49, 57, 60, 61,
# 64) for the orders where the first lab (split-lab.sh) left the route open: n = 56 lost and 64 won in Lower.
# Under the device's NVRTC 13 here (scripts/kernel-sass) float posv_split takes 80–111 registers (posv_warp<float,
# 64> 158) and no local memory; no float64 kernel's SASS changes. Built here by
#   scripts/device-build build/gpu/s68y -p bench/results/h200/session68/split32b.patch potrf:./internal/gpu/potrf
# carry ["build/gpu/s68y"], any card.
BUILD=s68y exec bash bench/results/h200/session68/split-lab.sh
