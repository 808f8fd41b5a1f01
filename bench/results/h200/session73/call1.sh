#!/usr/bin/env bash
# Session 73, call 1: session 72's next.sh as prepared, built at cae4c36 here:
#   scripts/device-build build/gpu/s73 posv:./internal/gpu/posv
#   scripts/device-build build/gpu/s73w -p bench/results/h200/session72/warp64.patch posv:./internal/gpu/posv
#   for b in s73 s73w; do tar -C build/gpu -cJf build/gpu/$b.tar.xz $b; done
# carry ["build/gpu/s73.tar.xz", "build/gpu/s73w.tar.xz"].
#  1. Every card: float32 Posv Lower n = 64 by native:fused, s73 (posv_split from 16,384 systems, session 68) and
#     s73w (warp64.patch: posv_warp, as before session 68) in turns, 1, 4 and 16 right-hand sides at 16,384 and
#     65,536 systems: session 72's re-tune had posv_split 3.6-6.0 % above the older posv_warp rows with 1 and 4 on
#     the H200, where the H100 had it ahead in one process.
#  2. On an H200 only: the float32 potrf rows n = 96, both triangles, every batch (measured before chol_tiled's
#     candidates existed: `batchlas route` lists them "not in the row"; at n = 128 they lead at 1 to 16 matrices,
#     session 72), and n = 128 at 16,384 and 65,536 (session 41's rows, without the three-block candidate), for
#     scripts/merge-tuned (--batches 16384,65536 for n = 128).
for b in s73 s73w; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s73"
cat "$PWD/build/gpu/s73w/commit" >"$L/commit-s73w.txt"
# shellcheck disable=SC2016 # $cli and $r, $m expand in cli_turns' shell
cli_turns posv 90 "s73 s73w" 'for r in 1 4 16; do for m in 16384 65536; do
	"$cli" bench posv -dtype float32 -uplo L -n 64 -nrhs $r -batch $m -arms native:fused -count 5 -time 50ms
done; done'
h200_only
gm=(--dtype float32 --max-mib 4096 --inputs gpumode)
tune_op t-96 200 potrf --uplo L,U --n 96 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 "${gm[@]}"
tune_op t-128 end potrf --uplo L,U --n 128 --batch 16384,65536 "${gm[@]}"
call_report
exit 0
