# Lab: the eager rsqrt (factor_step_block's EAGER, session 58) in factor_quarters, the four-block kernels' factor.
# Session 58 took it into factor_rows' 3xTF32 callers only: through factor_quarters it gave the four-block Upper
# kernel local memory under CUDA 13. Compiled here in its module (CUDA 13's NVRTC, scripts/device-nvrtc), the Upper
# kernel with it keeps 8 B of stack, and none with factor_quarters' TIGHT as well (the mends the Lower kernel takes
# since this session); the Lower kernel (TIGHT already) has none with it. Variants, on the tree with
# quarters-lower.patch (factor_quarters in the Lower four-block kernel, TIGHT for Lower):
#   tree    the tree as it is;
#   eager   factor_quarters' pivots by the eager rsqrt, and TIGHT for both triangles.
# The four-block kernels of both, both triangles, bit for bit (the eager rsqrt changes no bit: session 58), SPD and
# failing matrices.
#
# Usage, from the repository root: python3 bench/results/h200/session60/lab/eager4.py
# Env: CASES ("512x640,1024x60,2048x8,4096x2,8192x1"), REPS (7), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

edit = tl.edit
tree = open("internal/gpu/cholblocked/blocked.cu").read()
eager = edit(edit(tree, "        factor_step_block<S>(d, rd, c0, w, fail, dfail);", "        factor_step_block<S, true>(d, rd, c0, w, fail, dfail);"),
             "factor_quarters<NT, !UPPER>(s_a", "factor_quarters<NT, true>(s_a")
sources = {"tree": tree, "eager": eager}
src = open("bench/results/h200/session60/lab/quarters.py").read()
exec("def module" + src.split("def module")[1].split("\nkernels = {")[0])  # quarters.py's module(uplo)

fns = {}
for uplo in ("L", "U"):
    os.environ["CUBINS"] = f"/tmp/eager4-{uplo}"
    os.makedirs(os.environ["CUBINS"], exist_ok=True)
    results = tl.build(sources, tl.split_kernel(uplo, 4), module(uplo))
    if os.environ.get("COMPILE_ONLY") != "1":
        fns.update(tl.functions(results, tl.split_kernel(uplo, 4)))
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

bad = 0
specs = os.environ.get("CASES", "512x640,1024x60,2048x8,4096x2,8192x1").split(",")
for uplo in ("L", "U"):
    print(f"{uplo}:")
    arms = {"four": (fns[("tree", (uplo, 4))], 4), "four-eager": (fns[("eager", (uplo, 4))], 4)}
    bad += tl.compare_kernels(arms, uplo, specs, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy)
    bad += tl.compare_failing_kernels(arms, uplo, ((1, 71), (3, 300)), prepare=tl.roomy)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
