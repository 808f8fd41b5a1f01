#!/usr/bin/env bash
# Prepared in session 54 for the next device session: the committed tree with cta-steps-by-type.patch applied,
# its root, potrf and posv test binaries and CLI in build/gpu/s55 (carry ["build/gpu/s55"]) for next-call.sh.
exec "$(git rev-parse --show-toplevel)/scripts/device-build" build/gpu/s55 \
	-p bench/results/h200/session54/cta-steps-by-type.patch root:. potrf:./internal/gpu/potrf posv:./internal/gpu/posv
