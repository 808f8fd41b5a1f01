# Lab (GPU machine): four split stages in chol_tiled's three-block kernel (native:tiled:occ=3:prec=tf32x3, d8e1912).
# Three blocks leave room for a fourth stage of the three tile rows (55.3 KB of dynamic and 18.0 KB of static shared
# memory a block, 220 KB a multiprocessor), which the four-block kernels have not (split_stages' comment: four stages
# were within 1 % with one block and two tile rows, session 21). Variant:
#   s4   the three-block kernel with S = 4 (copies three steps ahead instead of two);
# timed against the tree's three-block kernel (s3), with the one- and four-block kernels beside them, interleaved;
# every arm's factors bit for bit as the one-block kernel's (the products' order does not change).
#
# Usage, from the repository root: python3 bench/results/h200/session59/lab/stages3.py
# Env: CASES ("4096x1,4096x2,2048x8,2048x2,1024x4,8192x1"), REPS (7), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
s4 = tl.edit(head, "            constexpr int S = split_stages;\n", "            constexpr int S = MIN_BLOCKS == 3 ? 4 : split_stages;\n")
kernels = {**tl.split_kernel("U", 1), **tl.split_kernel("U", 4), **tl.split_kernel("U", 3)}
results = tl.build({"head": head, "s4": s4}, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

fns = tl.functions(results, kernels)
f4 = fns[("s4", ("U", 3))]
shared4 = 3 * 4 * 32 * 36 * 4
f4.max_dynamic_shared_size_bytes = shared4
arms = {"one": (fns[("head", ("U", 1))], 1), "four": (fns[("head", ("U", 4))], 4), "s3": (fns[("head", ("U", 3))], 3),
        "s4": (f4, 3, shared4)}
specs = os.environ.get("CASES", "4096x1,4096x2,2048x8,2048x2,1024x4,8192x1").split(",")
bad = tl.compare_kernels(arms, "U", specs, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
