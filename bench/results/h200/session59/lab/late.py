# Lab (GPU machine): tile (j, j − 1)'s release after the diagonal task's last update in chol_tiled's four-block
# 3xTF32 kernel. chain4.py's stamps (call 3, H100) split the four-block kernel's step from one diagonal tile to the
# next (12.1 µs at n2048 b8, 11.5 at n4096 b2) into hand-over 0.75, X in 0.75, sums 0.25, L(j, j − 1) 0.62, the last
# update 2.0, the factor 6.5 and X out with the flag 1.0; the one-block kernel's last update takes 0.5. Between the
# stamps of that update lie the tile's stores and its publication, whose release waits for them (the one-block
# kernel stores and releases it in warps 2 and 3 during its factor). Variant:
#   late   the diagonal task issues the stores of L(j, j − 1), makes the last update, and only then releases the
#          tile's flag (its stores had the update's time to land); a failed matrix releases where head does;
#   after  as late, the flag released with flag (j, j) after the factor (the next diagonal task's last loop step
#          then waits for the factor; call 4: 3–12 % slower, dropped here);
#   warp3  as late, the flag released by warp 3 at the factor's start (factor_quarters' warp 3 waits for steps 0
#          to 2 before its own, so the release's wait is off the chain).
# Timed against the tree's kernel, interleaved (tiledlab); factors bit for bit, on SPD and on failing matrices.
#
# Usage, from the repository root: python3 bench/results/h200/session59/lab/late.py
# Env: CASES ("2048x8,4096x2,8192x1,1024x60,512x640"), REPS (7), UPLO (U), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit


def late(s):
    s = edit(s, "        bool defer = false;\n", "        bool defer = false, late = false;\n")
    s = edit(s, "            defer = ROWS && diag && f == 0;\n", "            defer = ROWS && diag && f == 0;\n"
             "            late = !ROWS && diag && f == 0; // released after the last update below\n")
    s = edit(s, "                if (!defer) publish(flag(row, c, m)); // its barrier also frees s_a for a second tile\n",
             """                if (late)
                    __syncthreads(); // the stores before the release below
                else if (!defer)
                    publish(flag(row, c, m)); // its barrier also frees s_a for a second tile
""")
    return edit(s, "            if (c >= 0) cd.template mul<true>(s_lc, s_lc);\n            __syncthreads();\n",
                "            if (c >= 0) cd.template mul<true>(s_lc, s_lc);\n            __syncthreads();\n"
                "            if (late && tid == 0) release(flag(i, c, m));\n")


def after(s):
    s = late(s)
    s = edit(s, "            if (late && tid == 0) release(flag(i, c, m));\n", "")
    return edit(s, "                publish(flag(j, j, m));\n                store_block",
                """                __syncthreads();
                if (tid == 0) {
                    if (!ROWS && j > 0) release(flag(j, j - 1, m)); // late: this task made tile (j, j − 1)
                    release(flag(j, j, m));
                }
                store_block""")


def warp3(s):
    s = late(s)
    s = edit(s, "            if (late && tid == 0) release(flag(i, c, m));\n", "")
    return edit(s, "                if constexpr (QUARTERS) factor_quarters<NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n",
                """                // Warp 3 waits for steps 0 to 2 first: its thread 0 releases tile (j, j − 1) (late).
                if (late && tid == 96) release(flag(i, c, m));
                if constexpr (QUARTERS) factor_quarters<NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);
""")


variants = {"head": head, "late": late(head), "warp3": warp3(head)}
tl.run_lab(variants, os.environ.get("UPLO", "U"), os.environ.get("CASES", "2048x8,4096x2,8192x1,1024x60,512x640").split(","),
           fails=((1, 71), (3, 300)), blocks=4)
