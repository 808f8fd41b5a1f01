#!/usr/bin/env bash
# Prepared in session 55 for the next device session: the committed tree with upper-copies.patch applied, its potrf
# and posv test binaries and CLI in build/gpu/s55 (carry ["build/gpu/s55"]) for next-call.sh.
exec "$(git rev-parse --show-toplevel)/scripts/device-build" build/gpu/s55 \
	-p bench/results/h200/session55/upper-copies.patch potrf:./internal/gpu/potrf posv:./internal/gpu/posv
