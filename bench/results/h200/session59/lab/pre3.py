# Lab (GPU machine): prefix tasks in chol_tiled's three-block kernel (native:tiled:occ=3:prec=tf32x3, d8e1912). The
# one-block kernels split a diagonal task's early steps into a task of their own, ahead groups before (blocked.cu's
# Prefix tasks: n = 4096 at one matrix 1337.9 → 1284.8 µs on the H200, session 31); the three-block kernel, which
# leads at n = 4096 with one and two matrices (call 9), has none. Variant:
#   pre  PRE for MIN_BLOCKS = 3 too: the task count takes the prefix tasks with row pairs, and a prefix task (i = j,
#        not diagonal) is never a pair task's second row;
# timed against the tree's three-block kernel (s3), the one- and four-block kernels beside them, interleaved; every
# arm's factors bit for bit as the one-block kernel's (prefix tasks sum the same products in the same order).
#
# Usage, from the repository root: python3 bench/results/h200/session59/lab/pre3.py
# Env: CASES ("4096x1,4096x2,2048x8,2048x2,8192x1,1024x4"), REPS (7), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit
s = edit(head, "    constexpr bool PRE = SPLIT && !PANEL && MIN_BLOCKS == 1;\n", "    constexpr bool PRE = SPLIT && !PANEL && MIN_BLOCKS <= 3;\n")
s = edit(s, "        (PAIRS ? nt + (long long)(nt - 1) * (nt - 1) / 4 : (long long)wt * nt - (long long)wt * (wt + 1) / 2 + 1 + Pre::count(nt)) *",
         "        (PAIRS ? nt + (long long)(nt - 1) * (nt - 1) / 4 + Pre::count(nt) : (long long)wt * nt - (long long)wt * (wt + 1) / 2 + 1 + Pre::count(nt)) *")
s = edit(s, "        const bool two = PAIRS && !diag && i + 1 < nt;\n", "        const bool two = PAIRS && !diag && !pre && i + 1 < nt;\n")
s = edit(s, "            if (PAIRS && !diag) // zero where there is no tile (i + 1, j)\n", "            if (PAIRS && !diag && !pre) // zero where there is no tile (i + 1, j)\n")
s = edit(s, "        if (pair || (PAIRS && !diag)) cd.from(s_b);\n", "        if (pair || (PAIRS && !diag && !pre)) cd.from(s_b);\n")
s = edit(s, "                        if (PAIRS && !diag) copy_tile<TS, NT, UPPER>(s_p2[k % S], rp2, next, wide);\n",
         "                        if (PAIRS && !diag && !pre) copy_tile<TS, NT, UPPER>(s_p2[k % S], rp2, next, wide);\n")
kernels = {**tl.split_kernel("U", 1), **tl.split_kernel("U", 4), **tl.split_kernel("U", 3)}
results = tl.build({"head": head, "pre": s}, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

fns = tl.functions(results, kernels)
arms = {"one": (fns[("head", ("U", 1))], 1), "four": (fns[("head", ("U", 4))], 4), "s3": (fns[("head", ("U", 3))], 3),
        "pre": (fns[("pre", ("U", 3))], 3)}
specs = os.environ.get("CASES", "4096x1,4096x2,2048x8,2048x2,8192x1,1024x4").split(",")
bad = tl.compare_kernels(arms, "U", specs, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy)
# Failing matrices: four of order 1024 (prefix tasks from 20 tiles a side: n = 641 on), matrix 1 failing at
# column 71 and matrix 3 at 900.
bad += tl.compare_failing_kernels(arms, "U", ((1, 71), (3, 900)), n=1024, prepare=tl.roomy)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
