# Lab: factor_quarters in chol_tiled's four-block Lower kernel too. That kernel factors with factor_subblocks because
# factor_quarters took it to a 16 B stack frame under CUDA 13 (session 50). Compiled here with CUDA 13's NVRTC
# (scripts/device-nvrtc), each as the library compiles it (one program a module: cholblocked's kernelNames(float32,
# uplo)), the Lower four-block kernel with factor_quarters keeps an 8 B frame (its spills: warp 0's inverse, the
# mbarrier parity and an accumulator, as factor_rows' in the three-block kernel) with either of factor_rows' mends
# alone (inverse_pivots4's bound, or the parity read at each wait), and none with both. Variants:
#   tree   internal/gpu/cholblocked/blocked.cu as it is (Lower four-block: factor_subblocks);
#   qbp    QUARTERS for Lower too, and factor_quarters' inverse bounded (inverse_pivots4<true>) and reading its
#          parity from quarters_phase at each wait: both triangles' four-block kernels change.
# Written against 8913efe's blocked.cu (the edits fail on a tree with quarters-lower.patch, which lands qbp's Lower).
# Timed: Lower one-, three- and four-block kernels of the tree beside qbp's four-block one (factor_quarters' bits are
# factor_rows', so qbp's Lower factors must equal the one-block kernel's; the tree's four-block ones, factor_subblocks,
# are held to info and residuals); Upper, the four-block kernel of the tree and of qbp (bit for bit).
#
# Usage, from the repository root: python3 bench/results/h200/session60/lab/quarters.py
# Env: CASES_L ("512x640,1024x60,2048x8,4096x2,8192x1,2048x2"), CASES_U ("512x640,1024x60,2048x8,4096x2,8192x1"),
#      REPS (7), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

edit = tl.edit
tree = open("internal/gpu/cholblocked/blocked.cu").read()
qbp = edit(edit(edit(tree, "constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT && UPPER;",
                     "constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT;"),
                "            inverse_pivots4<false>(s_l, s_rd, s_x, li, k4, acc);", "            inverse_pivots4<true>(s_l, s_rd, s_x, li, k4, acc);"),
           "if (k4 > 0 && k4 % S == 0) mbar_wait(B(k4 / S, 0), parity);", "if (k4 > 0 && k4 % S == 0) mbar_wait(B(k4 / S, 0), quarters_phase & 1);")
sources = {"tree": tree, "qbp": qbp}


def module(uplo):
    """cholblocked's kernelNames(Float32, uplo): the program the library compiles these kernels in."""
    u = "true" if uplo == "U" else "false"
    return [f"chol_diag<float, 64, 256, {u}>", f"chol_apply<float, 64, 64, {u}, false>", f"chol_apply<float, 64, 32, {u}, false>",
            f"chol_tiled<float, 32, 128, {u}, false, false, 1>", f"chol_apply<float, 64, 64, {u}, true>",
            f"chol_apply<float, 64, 32, {u}, true>", f"chol_tiled<float, 32, 128, {u}, true, false, 1>",
            f"chol_tiled<float, 32, 128, {u}, false, true, 1>", f"chol_tiled<float, 32, 128, {u}, true, true, 1>",
            f"chol_tiled<float, 32, 128, {u}, false, false, 4>", f"chol_tiled<float, 32, 128, {u}, true, false, 4>",
            f"chol_tiled<float, 32, 128, {u}, true, false, 3>"]


kernels = {"L": {**tl.split_kernel("L", 1), **tl.split_kernel("L", 3), **tl.split_kernel("L", 4)}, "U": tl.split_kernel("U", 4)}
fns = {}
for uplo in ("L", "U"):
    os.environ["CUBINS"] = f"/tmp/quarters-{uplo}"
    os.makedirs(os.environ["CUBINS"], exist_ok=True)
    results = tl.build(sources, kernels[uplo], module(uplo))
    if os.environ.get("COMPILE_ONLY") != "1":
        fns.update(tl.functions(results, kernels[uplo]))
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

reps = int(os.environ.get("REPS", "7"))
lower = {"one": (fns[("tree", ("L", 1))], 1), "three": (fns[("tree", ("L", 3))], 3), "four": (fns[("tree", ("L", 4))], 4),
         "four-qbp": (fns[("qbp", ("L", 4))], 4)}
upper = {"four": (fns[("tree", ("U", 4))], 4), "four-qbp": (fns[("qbp", ("U", 4))], 4)}
bad = 0
for uplo, arms, exempt, cases in (("L", lower, ("four",), "512x640,1024x60,2048x8,4096x2,8192x1,2048x2"),
                                  ("U", upper, (), "512x640,1024x60,2048x8,4096x2,8192x1")):
    print(f"{uplo}:")
    specs = os.environ.get(f"CASES_{uplo}", cases).split(",")
    bad += tl.compare_kernels(arms, uplo, specs, reps=reps, prepare=tl.roomy, bits_exempt=exempt)
    bad += tl.compare_failing_kernels(arms, uplo, ((1, 71), (3, 300)), prepare=tl.roomy, bits_exempt=exempt)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
