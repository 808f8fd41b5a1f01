# Lab: chol_tiled's three-block kernel for both triangles, as this session builds it. Session 59's occ3L.py built
# the Lower one with 8 B of stack under CUDA 13; call 2's SASS (-lineinfo, lab/spills.py) put both spilled words in
# factor_rows' warp 1 (the inverse): its mbarrier parity and one of its 32 accumulators, while ptxas held many rows'
# reads of L ahead. The tree's factor_rows<…, TIGHT> (MIN_BLOCKS = 3) has inverse_pivots4 wait at a __syncwarp
# every 8 rows below, as warp 0's deferred update does: 168 registers and no stack for both triangles. Variants:
#   tree     internal/gpu/cholblocked/blocked.cu as it is;
#   nobound  the tree without that __syncwarp (for Upper the kernel d8e1912 shipped; for Lower session 59's, 8 B of
#            stack);
#   parity   nobound with warp 1 reading rows_phase at each wait instead of holding its parity (still 8 B: the
#            accumulator stays spilled; compiled only, as a record).
# Lower: the one-, four- and three-block kernels, tree and nobound; Upper: the three-block kernel, tree and nobound
# (what TIGHT costs the kernel that ships). Factors bit for bit as the first arm's, but the four-block Lower kernel's
# (factor_subblocks: info and residuals only); four failing matrices each.
#
# Usage, from the repository root: python3 bench/results/h200/session60/lab/occ3L.py
# Env: CASES_L ("4096x1,4096x2,2048x8,2048x2,1024x60"), CASES_U ("4096x1,4096x2,2048x8,2048x2"), REPS (7),
#      COMPILE_ONLY=1 (resources only; CUDA 13's NVRTC here: the device's, or the development machine's copy, call 2).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

edit = tl.edit
tree = open("internal/gpu/cholblocked/blocked.cu").read()
nobound = edit(tree, "        if (BOUND && (i - k4) % 8 == 3) __syncwarp();\n", "")
parity = edit(edit(nobound, "        const unsigned parity = rows_phase & 1;\n", ""),
              "bar_wait(&rows_bars[k4 / S], parity);", "bar_wait(&rows_bars[k4 / S], rows_phase & 1);")
sources = {"tree": tree, "nobound": nobound, "parity": parity}
kernels = {**tl.split_kernel("L", 1), **tl.split_kernel("L", 4), **tl.split_kernel("L", 3), **tl.split_kernel("U", 3)}
results = tl.build(sources, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

fns = tl.functions(results, kernels)
reps = int(os.environ.get("REPS", "7"))
lower = {"one": (fns[("tree", ("L", 1))], 1), "four": (fns[("tree", ("L", 4))], 4), "three": (fns[("tree", ("L", 3))], 3),
         "three-nobound": (fns[("nobound", ("L", 3))], 3)}
upper = {"three": (fns[("tree", ("U", 3))], 3), "three-nobound": (fns[("nobound", ("U", 3))], 3)}
bad = 0
for uplo, arms, cases in (("L", lower, "4096x1,4096x2,2048x8,2048x2,1024x60"), ("U", upper, "4096x1,4096x2,2048x8,2048x2")):
    print(f"{uplo}:")
    specs = os.environ.get(f"CASES_{uplo}", cases).split(",")
    bad += tl.compare_kernels(arms, uplo, specs, reps=reps, prepare=tl.roomy, bits_exempt=("four",))
    bad += tl.compare_failing_kernels(arms, uplo, ((1, 71), (3, 300)), prepare=tl.roomy, bits_exempt=("four",))
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
