# Lab (GPU machine): where factor_rows' deferred update sits in warp 0's step. Session 57's clock64 stamps put warp
# 0's four 8-column steps at 1,500–2,200 cycles each, the steps with a deferred part (a) (step p − 1's update of the
# columns after this step's: 16 columns of 8 terms at p = 1, 8 at p = 2) 200–400 cycles longer than the last step,
# which has none: (a) runs in series with the diagonal block's chain (b), whose pivots wait on rsqrt, multiply and
# fused multiply-add one after the other. (a) is independent of (b) and of the row solve (c); it must only come
# before (e), the next step's columns, for the same order of terms (the same bits). Variants of the tree's
# blocked.cu (its one-block 3xTF32 kernel, as the suite's chains run it):
#   late         (a) after (b), with its __syncwarp every 8 columns (which bound how far ptxas hoists its reads);
#   late-nosync  (a) after (b), without them: ptxas may fill (b)'s and (c)'s latency with (a)'s terms;
#   nosync       (a) where it is, without them;
#   arrive       (a) after (c) and (d), once the step is published to warp 1 (which then starts the step's part of
#                the inverse sooner), without them.
# Each is timed against the tree's kernel, interleaved (tiledlab), and must give its factors bit for bit, on SPD
# matrices and on a failing one (matrix 1 of 4, n = 512, A(70, 70) = −100).
#
# Usage, from the repository root: python3 bench/results/h200/session58/lab/order.py
# Env: CASES ("512x16,1024x4,256x64,2048x2,4096x1"), REPS (7), UPLO (U), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit


SYNC = "                    if ((c - c0) % 8 == 0) __syncwarp(); // bounds how far ptxas hoists the reads (see above)\n"
DEFERRED = """            if (p > 0) {
                // The deferred part of step p − 1's update: the columns
                // after this step's.
#pragma unroll
                for (int c = c0 + S; c < N; ++c) {
""" + SYNC + """                    float lc[S];
                    ld4(&s_l[p - 1][c][0], &lc[0]);
                    ld4(&s_l[p - 1][c][4], &lc[4]);
#pragma unroll
                    for (int q = 0; q < S; ++q) r[c] = fmaf(-r[c0 - S + q], lc[q], r[c]);
                }
            }
"""
AFTER_B = """            if (li == 0) {
#pragma unroll
                for (int t = 0; t < S; ++t) s_rd[c0 + t] = rd[t];
            }
"""


ARRIVE = "            bar_arrive(&rows_bars[p]); // s_l[p] and (lane 0) s_rd's step p, to warp 1\n"


def late(s, sync, at=AFTER_B):
    s = edit(s, DEFERRED, "")
    return edit(s, at, at + (DEFERRED if sync else DEFERRED.replace(SYNC, "")))


variants = {
    "head": head,
    "late": late(head, True),
    "late-nosync": late(head, False),
    "nosync": edit(head, DEFERRED, DEFERRED.replace(SYNC, "")),
    "arrive": late(head, False, ARRIVE),
}
tl.run_lab(variants, os.environ.get("UPLO", "U"), os.environ.get("CASES", "512x16,1024x4,256x64,2048x2,4096x1").split(","))
