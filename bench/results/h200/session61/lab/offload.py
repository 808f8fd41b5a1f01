# Lab: factor_rows' deferred update moved off warp 0 (OFFLOAD), in chol_tiled's one-block 3xTF32 kernels, which
# run the suite's chains (n256 b64 … n4096 b1). Session 57's stamps put factor_rows at about 7,300 cycles of warp 0
# alone, four steps of about 550 SASS instructions, and its steps 2 and 3 300–400 cycles longer than 1 and 4 for
# the deferred part of the previous step's update (the columns beyond the next step: 16, then 8). With OFFLOAD
# warp 2 makes that part in s_a as soon as warp 0 publishes a step (rows_bars), and publishes it in turn (two more
# mbarriers); warp 0 reloads those columns from s_a just before its own update of them ((e), the next step's
# columns). The same multiply-adds in the same order, so the factors keep their bits (checked). Warp 2 stored half of
# tile (j, j − 1) during the factor (the Deferred store); under OFFLOAD warp 3 stores it alone.
#   tree     the tree's kernel;
#   offload  the same with OFFLOAD;
#   offload3 OFFLOAD in the three-block kernels too (n4096 b1, b2 and n2048 b8, where they led on the H100).
# Compiled in cholblocked's float module of the triangle (session 60's finding), both triangles, bit for bit, SPD
# and failing matrices; then the suite's chain cases timed (interleaved, L2 evicted, the median of REPS).
#
# Usage, from the repository root: python3 bench/results/h200/session61/lab/offload.py
# Env: CASES ("256x64,512x16,1024x4,2048x2,4096x1"), CASES3 ("4096x1,4096x2,2048x8"), REPS (7), COMPILE_ONLY=1.
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

edit = tl.edit
tree = open("internal/gpu/cholblocked/blocked.cu").read()
s = tree
s = edit(s, "__shared__ __align__(8) unsigned long long rows_bars[4];", "__shared__ __align__(8) unsigned long long rows_bars[6];")
s = edit(s, "__device__ __forceinline__ void rows_init() { bars_init(rows_bars, 4, &rows_phase); }",
         "__device__ __forceinline__ void rows_init() { bars_init(rows_bars, 6, &rows_phase); }")
s = edit(s, "template <int NT, bool EAGER, bool TIGHT>\n__device__ __forceinline__ void factor_rows(",
         "template <int NT, bool EAGER, bool TIGHT, bool OFFLOAD = false>\n__device__ __forceinline__ void factor_rows(")
s = edit(s, "            if (p > 0) {\n                // The deferred part of step p − 1's update: the columns\n",
         "            if (!OFFLOAD && p > 0) {\n                // The deferred part of step p − 1's update: the columns\n")
s = edit(s, """                // (e) The next step's columns, and its diagonal block.
                __syncwarp();
""", """                // (e) The next step's columns, and its diagonal block.
                __syncwarp();
                if (OFFLOAD && p > 0) {
                    // Steps 0 … p − 1 applied to them by warp 2, in s_a.
                    bar_wait(&rows_bars[4 + p - 1], rows_phase & 1);
#pragma unroll
                    for (int c = c0 + S; c < c0 + 2 * S; ++c) r[c] = s_a[li][c];
                }
""")
s = edit(s, """    } else if (threadIdx.x < 64) {
        // Warp 1: the inverse, each step's pivots once warp 0 has published them.""", """    } else if (OFFLOAD && threadIdx.x >= 64 && threadIdx.x < 96) {
        // Warp 2 (OFFLOAD): step s's update of the columns beyond step s + 1's, in s_a, once warp 0 has published
        // the step; warp 0 reloads them before its own update of them.
        const int li = threadIdx.x - 64;
        const unsigned parity = rows_phase & 1;
#pragma unroll
        for (int st = 0; st + 2 < P; ++st) {
            bar_wait(&rows_bars[st], parity);
            float l[S];
            ld4(&s_l[st][li][0], &l[0]);
            ld4(&s_l[st][li][4], &l[4]);
#pragma unroll
            for (int c = S * (st + 2); c < N; ++c) {
                float lc[S];
                ld4(&s_l[st][c][0], &lc[0]);
                ld4(&s_l[st][c][4], &lc[4]);
                float v = s_a[li][c];
#pragma unroll
                for (int q = 0; q < S; ++q) v = fmaf(-l[q], lc[q], v);
                s_a[li][c] = v;
            }
            bar_arrive(&rows_bars[4 + st]);
        }
    } else if (threadIdx.x < 64) {
        // Warp 1: the inverse, each step's pivots once warp 0 has published them.""")
# Warp 1 under OFFLOAD: the three-block kernels' mends (its parity read at each wait, the inverse bounded), without
# which the kernels took an 8 B stack frame (compiled here: warp 1's parity and an accumulator, as in session 60).
s = edit(s, "if (k4 % S == 0) bar_wait(&rows_bars[k4 / S], parity);",
         "if (k4 % S == 0) bar_wait(&rows_bars[k4 / S], OFFLOAD ? rows_phase & 1 : parity);")
s = edit(s, "inverse_pivots4<TIGHT>(s_l, s_rd, s_x, li, k4, acc);", "inverse_pivots4<TIGHT || OFFLOAD>(s_l, s_rd, s_x, li, k4, acc);")
# chol_tiled: the one-block split kernels factor with OFFLOAD, and warp 3 alone stores tile (j, j − 1).
s = edit(s, "    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT;\n",
         "    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT;\n"
         "    constexpr bool OFF = ROWS && SPLIT && MIN_BLOCKS == 1;\n    constexpr int W0 = OFF ? 3 : 2; // the first storing warp\n")
s = edit(s, """                if (defer && tid >= 64) {
                    const int lane = tid % 32;
#pragma unroll 1
                    for (int sl = tid / 32 - 2; sl < TS; sl += NT / 32 - 2) {""", """                if (defer && tid >= 32 * W0) {
                    const int lane = tid % 32;
#pragma unroll 1
                    for (int sl = tid / 32 - W0; sl < TS; sl += NT / 32 - W0) {""")
s = edit(s, "if (lane == 0 && count_in(&s_stored, NT / 32 - 3) == NT / 32 - 3) release(flag(i, c, m));",
         "if (lane == 0 && count_in(&s_stored, NT / 32 - W0 - 1) == NT / 32 - W0 - 1) release(flag(i, c, m));")
s = edit(s, "factor_rows<NT, SPLIT, MIN_BLOCKS == 3>(s_a, s_b, wj, j + 1 < nt, fail, dfail);",
         "factor_rows<NT, SPLIT, MIN_BLOCKS == 3, OFF>(s_a, s_b, wj, j + 1 < nt, fail, dfail);")
# offload3: OFFLOAD in the three-block kernels as well (168 registers, TIGHT already).
s3 = edit(s, "    constexpr bool OFF = ROWS && SPLIT && MIN_BLOCKS == 1;\n", "    constexpr bool OFF = ROWS && SPLIT;\n")
sources = {"tree": tree, "offload": s, "offload3": s3}
src = open("bench/results/h200/session60/lab/quarters.py").read()
exec("def module" + src.split("def module")[1].split("\nkernels = {")[0])  # quarters.py's module(uplo)

fns = {}
for uplo in ("U", "L"):
    os.environ["CUBINS"] = f"/tmp/offload-{uplo}"
    os.makedirs(os.environ["CUBINS"], exist_ok=True)
    kernels = {**tl.one_block_split(uplo), **tl.split_kernel(uplo, 3)}
    results = tl.build(sources, kernels, module(uplo))
    if os.environ.get("COMPILE_ONLY") != "1":
        fns.update(tl.functions(results, kernels))
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

bad = 0
specs = os.environ.get("CASES", "256x64,512x16,1024x4,2048x2,4096x1").split(",")
specs3 = os.environ.get("CASES3", "4096x1,4096x2,2048x8").split(",")
for uplo in ("U", "L"):
    print(f"{uplo}:")
    arms = {"tree": (fns[("tree", (uplo, 1))], 1), "offload": (fns[("offload", (uplo, 1))], 1)}
    bad += tl.compare_kernels(arms, uplo, specs, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy)
    bad += tl.compare_failing_kernels(arms, uplo, ((1, 71), (3, 300)), prepare=tl.roomy)
    print(f"{uplo}, the three-block kernels:")
    arms = {"tree": (fns[("tree", (uplo, 3))], 3), "offload3": (fns[("offload3", (uplo, 3))], 3)}
    bad += tl.compare_kernels(arms, uplo, specs3, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy)
    bad += tl.compare_failing_kernels(arms, uplo, ((1, 71), (3, 300)), prepare=tl.roomy)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
