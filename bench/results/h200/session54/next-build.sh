#!/usr/bin/env bash
# Prepared in session 54 for the next device session: builds here, from the committed tree with
# cta-steps-by-type.patch applied in a worktree, the potrf, posv and root test binaries and the CLI into
# build/gpu/s55 (carry ["build/gpu/s55"]) for next-call.sh.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s55
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
flags=(-trimpath -ldflags=-s\ -w)
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
git -C "$W" apply "$R/bench/results/h200/session54/cta-steps-by-type.patch"
for p in root:. potrf:./internal/gpu/potrf posv:./internal/gpu/posv; do
	(cd "$W" && go test -c "${flags[@]}" -o "$out/${p%%:*}.test" "${p#*:}")
done
(cd "$W" && go build "${flags[@]}" -o "$out/batchlas" ./cmd/batchlas)
echo "$(git -C "$W" rev-parse HEAD) + cta-steps-by-type.patch" > "$out/commit"
du -sh "$out"
