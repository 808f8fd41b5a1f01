#!/usr/bin/env bash
# Prepared in session 55 for the next device session: build/gpu/s55 = the committed tree with cta-forms.patch
# (upper-copies.patch, and float64's steps loaded a step ahead instead of staged), its potrf and posv test binaries
# and CLI; build/gpu/s55h = the committed tree's CLI, for ab.sh. Carry ["build/gpu/s55", "build/gpu/s55h"].
set -e
S="$(git rev-parse --show-toplevel)/scripts/device-build"
"$S" build/gpu/s55 -p bench/results/h200/session55/cta-forms.patch potrf:./internal/gpu/potrf posv:./internal/gpu/posv
"$S" build/gpu/s55h
