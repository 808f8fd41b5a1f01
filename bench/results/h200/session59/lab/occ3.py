# Lab (GPU machine): a 3xTF32 chol_tiled built for three blocks a multiprocessor, with the one-block kernels' diagonal
# machinery (factor_rows with its overlapped inverse and eager rsqrt, tile (j, j − 1) stored by warps 2 and 3 during
# the factor) and the four-block kernels' row pairs. Why: at the suite's batched mid sizes the four-block kernel's
# time is its chain (chain4.py, call 3, H100: n2048 b8 64 steps of 12.1 µs, n4096 b2 128 of 11.5; the factor 6.5 of
# it, the last update with the tile's store and release 2.0), the one-block kernel's step is 7.25 µs but two blocks
# a multiprocessor leave it short of throughput there (n2048 b8 1130 µs against 774). Three blocks leave 168
# registers a thread, which factor_rows may fit without local memory now that the loop copies by cp.async.
#   one    the tree's one-block kernel (two blocks a multiprocessor), native:tiled:prec=tf32x3;
#   four   the tree's four-block kernel, native:tiled:occ=4:prec=tf32x3;
#   three-rp  the tree's source with MIN_BLOCKS = 3 allowed: ROWS for 1 and 3, PAIRS and three tile rows for 3 and 4
#             (call 6's "three"; 168 registers and a 32 B stack frame under NVRTC 12.4);
#   three-qp  as rp with factor_quarters (QUARTERS) in factor_rows' place (no stack frame under NVRTC 12.4);
#   three-r   ROWS without row pairs (16 B of stack under NVRTC 12.4).
# factor_quarters and factor_rows make the same bits, row pairs too, so every arm must agree bit for bit (Lower's
# four-block kernel factors with factor_subblocks, whose bits differ: its info and residuals only).
#
# Usage, from the repository root: SOURCE=FILE python3 bench/results/h200/session59/lab/occ3.py
# Env: SOURCE (below), CASES ("2048x8,4096x2,8192x1,1024x60,512x640,1024x4,2048x2,4096x1"), REPS (7), UPLO (U),
# COMPILE_ONLY=1.
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

# SOURCE: the blocked.cu the edits apply to, 394ef77's (calls 6 and 7 ran on it; d8e1912 took rp's edits into the
# tree): git show 394ef77:internal/gpu/cholblocked/blocked.cu > FILE.
head = open(os.environ.get("SOURCE", "internal/gpu/cholblocked/blocked.cu")).read()
edit = tl.edit


def base(s):
    return edit(s, "    static_assert(MIN_BLOCKS == 1 || MIN_BLOCKS == 4, ", "    static_assert(MIN_BLOCKS == 1 || MIN_BLOCKS == 3 || MIN_BLOCKS == 4, ")


def rows(s):
    return edit(s, "    constexpr bool ROWS = sizeof(T) == 4 && MIN_BLOCKS == 1;\n", "    constexpr bool ROWS = sizeof(T) == 4 && MIN_BLOCKS <= 3;\n")


def pairs(s):
    s = edit(s, "    constexpr bool PAIRS = SPLIT && !PANEL && MIN_BLOCKS == 4;\n", "    constexpr bool PAIRS = SPLIT && !PANEL && MIN_BLOCKS >= 3;\n")
    return edit(s, "    static constexpr int value = MIN_BLOCKS == 4 ? 3 : 2;\n", "    static constexpr int value = MIN_BLOCKS >= 3 ? 3 : 2;\n")


def quarters(s):
    return edit(s, "    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT && UPPER;\n",
                "    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS >= 3 && SPLIT && UPPER;\n")


# Each source builds MIN_BLOCKS = 1, 3 and 4 (head's cannot build 3; the edits leave 1 and 4 as they are).
sources = {"rp": pairs(rows(base(head))), "qp": quarters(pairs(base(head))), "r": rows(base(head))}
uplo = os.environ.get("UPLO", "U")
kernels = {**tl.split_kernel(uplo, 1), **tl.split_kernel(uplo, 4), **tl.split_kernel(uplo, 3)}
results = tl.build(sources, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

fns = tl.functions(results, kernels)
arms = {"one": (fns[("rp", (uplo, 1))], 1), "four": (fns[("rp", (uplo, 4))], 4)}
arms.update({f"three-{v}": (fns[(v, (uplo, 3))], 3) for v in sources})
# Lower's four-block kernel factors its diagonal tiles with factor_subblocks, whose sums are ordered otherwise.
exempt = ("four",) if uplo == "L" else ()
specs = os.environ.get("CASES", "2048x8,4096x2,8192x1,1024x60,512x640,1024x4,2048x2,4096x1").split(",")
bad = tl.compare_kernels(arms, uplo, specs, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy, bits_exempt=exempt)
# Failing matrices: four of order 512, matrix 1 failing at column 71 and matrix 3 at 300.
bad += tl.compare_failing_kernels(arms, uplo, ((1, 71), (3, 300)), prepare=tl.roomy, bits_exempt=exempt)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
