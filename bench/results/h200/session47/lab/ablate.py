# Lab (GPU machine; prepared in session 47, which had no device): where chol_tiled's float32 3xTF32 whole-matrix
# kernels spend their time, by taking parts away. Variants of the tree's internal/gpu/cholblocked/blocked.cu:
#   head    as it is;
#   noloop  the split loop skipped (k1 = k0 in effect): what is left is each task's own work (C and X loaded, the
#           solve, the stores, the diagonal factor, the flags and tickets);
#   nomma   the loop without its products (copies, flag waits and barriers kept);
#   nocopy  the loop without its copies (the buffers zeroed once at the start; products, waits, barriers kept);
#   mma3    every product of the loop three times (subtract, add, subtract: one product's value, three times the
#           work), so head − mma3 measures what the products cost at the margin;
#   trunc   the TF32 split with hi truncated instead of rounded (tf32_bits without its + 0x1000: one instruction
#           fewer a value, about 4× the split's error, which stays far below float32's bound; timed and checked, a
#           probe of what the rounding costs, not a candidate yet: the accuracy families were not run on it).
# Every variant but head computes something else, but stays finite and positive definite where it matters: without
# the loop's updates a tile is A's own, so the diagonal tiles are A's and factor. Only head's and trunc's results
# are checked (info, ‖LLᵀ − A‖₁ / (‖A‖₁·n·eps)); the others' info is printed so that a failure (which would skip
# work) shows.
# Launched as PotrfTiled launches chol_tiled (bench/lab/tiledlab.py: CuPy, CUDA events around the launch, L2
# evicted, variants interleaved in each repetition, median of $REPS). $CASES: uplo x n x count x blocks-a-
# multiprocessor (1 or 4), every case the split (3xTF32) kernel.
#   python3 bench/results/h200/session47/lab/ablate.py            # on the GPU machine, from the repository root
#   eval "$(scripts/local-cuda /tmp/lcuda)"; LD_LIBRARY_PATH=$(dirname $NVRTC) COMPILE_ONLY=1 python3 …/ablate.py
#                                                                   # here: compile, print registers and frames
import os, sys
sys.path.insert(0, "bench/lab")
import tiledlab as tl

KN = {(u, mb): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, true, false, {mb}>" for u in "LU" for mb in (1, 4)}


def sub(src, old, new):
    assert src.count(old) == 1, old
    return src.replace(old, new)


PRODUCTS = """                    if (pair)
                        cc.template mul_pair<true>(cd, s_p[b], s_q[b]); // and cd −= P·Pᵀ: row j of L is s_p here
                    else if (PAIRS)
                        cc.template mul_rows<true>(cd, s_p[b], s_p2[b], s_q[b]); // and cd −= P2·Qᵀ, zero unless two
                    else
                        cc.template mul<true>(s_p[b], s_q[b]);
"""
THRICE = """                    if (pair) {
                        cc.template mul_pair<true>(cd, s_p[b], s_q[b]);
                        cc.template mul_pair<false>(cd, s_p[b], s_q[b]);
                        cc.template mul_pair<true>(cd, s_p[b], s_q[b]);
                    } else if (PAIRS) {
                        cc.template mul_rows<true>(cd, s_p[b], s_p2[b], s_q[b]);
                        cc.template mul_rows<false>(cd, s_p[b], s_p2[b], s_q[b]);
                        cc.template mul_rows<true>(cd, s_p[b], s_p2[b], s_q[b]);
                    } else {
                        cc.template mul<true>(s_p[b], s_q[b]);
                        cc.template mul<false>(s_p[b], s_q[b]);
                        cc.template mul<true>(s_p[b], s_q[b]);
                    }
"""
COPIES = """                        copy_tile<TS, NT, UPPER>(s_p[k % S], rp, next, wide);
                        copy_tile<TS, NT, UPPER>(s_q[k % S], rq, next, wide);
                        if (PAIRS && !diag) copy_tile<TS, NT, UPPER>(s_p2[k % S], rp2, next, wide);
"""
ZERO_AT_START = """    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in
    if constexpr (SPLIT) { // ablate: nocopy's buffers hold zeros, never copied into
        extern __shared__ __align__(16) float s_zero[];
        for (int e = tid; e < split_rows<MIN_BLOCKS>::value * split_stages * TS * (TS + 4); e += NT) s_zero[e] = 0.f;
    }
"""
tree = open("internal/gpu/cholblocked/blocked.cu").read()
V = {
    "head": tree,
    "noloop": sub(tree, "            if (k1 > k0) {\n", "            if (false && k1 > k0) { // ablate: noloop\n"),
    "nomma": sub(tree, PRODUCTS, "                    (void)b; // ablate: nomma\n"),
    "nocopy": sub(sub(tree, COPIES, "                        (void)rp2; // ablate: nocopy\n"),
                  "    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in\n",
                  ZERO_AT_START),
    "mma3": sub(tree, PRODUCTS, THRICE),
    "trunc": sub(tree, "return (__float_as_uint(v) + 0x1000u) & 0xffffe000u; }", "return __float_as_uint(v) & 0xffffe000u; }"),
}
results = tl.build(V, KN)
if os.environ.get("COMPILE_ONLY"):
    sys.exit(0)

import numpy as np
fns = tl.functions(results, KN)
arms = [name for name, path, *_ in results if path is not None]
cases = os.environ.get("CASES", "Ux512x640x4,Ux1024x60x4,Ux2048x8x4,Ux4096x2x4,Ux8192x1x4,"
                       "Ux512x16x1,Ux1024x4x1,Ux2048x2x1,Ux4096x1x1,Lx1024x60x4")
for spec in cases.split(","):
    uplo, n, count, mb = spec.split("x")
    c = tl.Case(int(n), int(count), uplo)
    failed, checked = {}, {}

    def after(a):
        failed[a] = int((c.info != 0).sum())
        if a in ("head", "trunc"):
            checked[a] = c.check()

    ts = tl.interleaved(c, fns, arms, (uplo, int(mb)), int(os.environ.get("REPS", "7")), after)
    head = float(np.median(ts["head"]))
    out = []
    for a in arms:
        t = float(np.median(ts[a]))
        out.append(f"{a} {t:8.1f} ({t / head:.2f}{', failed ' + str(failed[a]) if failed[a] else ''})")
    checks = ", ".join(f"{a}: info {i}, residual {r:.4f}" for a, (i, r) in checked.items())
    print(f"{uplo} n{n} b{count} mb{mb} ({checks}): " + "  ".join(out), flush=True)
