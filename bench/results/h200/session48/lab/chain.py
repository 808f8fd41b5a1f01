# Lab (GPU machine): chol_tiled with factor_quarters (lab/quarters.cuh) as the diagonal factor of its one-block float
# kernels, against the tree's blocked.cu, at the cholesky-gpumode cases those kernels take (the chain from one diagonal
# tile to the next is their time) and the five the four-block kernels take (changed by mbar4 alone: a control for
# the others).
#
#   head      the tree's blocked.cu
#   quarters  factor_rows replaced by factor_quarters in chol_tiled's ROWS path; tile (j, j − 1), which warps 1…
#             stored during factor_rows, is stored and released by warp 0 after its step, before its inverse
#   mbar      quarters with mbarriers instead of named barriers (quarters.cuh's kMbar)
#   full      quarters with a __syncthreads after each step (kFull), the store of tile (j, j − 1) by warp 3 first
#   mbar4     mbar, and factor_quarters in the float split kernels for four blocks a multiprocessor too
#             (factor_subblocks there until now); at the one-block cases the same code as mbar, at the four-block ones
#             the only change
#
# Each case: float32, Upper (the suite's), launched as PotrfTiled launches it (bench/lab/tiledlab.py: CUDA events
# around the launch alone, L2 evicted, variants interleaved, median of REPS), every result checked (info 0 and
# ‖LLᵀ − A‖₁ / (‖A‖₁·n·eps) of the first and last matrix), and every variant's factors compared with head's bit for
# bit (the same operations in the same order: they must be equal).
#
# Usage, from the repository root: python3 bench/results/h200/session48/lab/chain.py
# Env: REPS (9), CASES ("256x64,512x16,1024x4,2048x2,4096x1,512x640,1024x60,2048x8,4096x2,8192x1"), SPLIT ("1": 3xTF32 products, the
# tables' choice at every suite case; "10" adds the exact kernels), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from variant import with_quarters

head = open("internal/gpu/cholblocked/blocked.cu").read()


variants = {"head": head, "quarters": with_quarters(head), "mbar": with_quarters(head, mbar=True),
            "full": with_quarters(head, full=True), "mbar4": with_quarters(head, mbar=True, four=True)}
ARMS = list(variants)
kernels = {(u, s, mb): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, {'true' if s else 'false'}, false, {mb}>"
           for u in "LU" for s in (0, 1) for mb in (1, 4)}
kernels.update({(u, s, "panel"): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, {'true' if s else 'false'}, true, 1>"
                for u in "LU" for s in (0, 1)})
results = tl.build(variants, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp
import numpy as np


def host_copy(a):
    return cp.asnumpy(a).copy()


run_kernels = {k: v for k, v in kernels.items() if k[-1] != "panel"}
fns = tl.functions(results, run_kernels)
reps = int(os.environ.get("REPS", "9"))
bad = 0
for spec in os.environ.get("CASES", "256x64,512x16,1024x4,2048x2,4096x1,512x640,1024x60,2048x8,4096x2,8192x1").split(","):
    n, count = map(int, spec.split("x"))
    c = tl.Case(n, count, "U")
    for split in map(int, os.environ.get("SPLIT", "1")):
        # The blocks a multiprocessor the embedded tables take for the suite's case (potrf.md's summary).
        mb = 4 if (n, count) in {(512, 640), (1024, 60), (2048, 8), (4096, 2), (8192, 1)} else 1
        key = ("U", split, mb)
        out = {}

        def keep(arm):
            out[arm] = (c.check(), host_copy(c.a))

        ts = tl.interleaved(c, fns, ARMS, key, reps=reps, after=keep)
        line = f"n{n} b{count} {'3xTF32' if split else 'exact '} {mb} a SM:"
        for arm in ARMS:
            (info, resid) = out[arm][0]
            ok = info == 0 and resid < 20
            bad += not ok
            line += f"  {arm} {np.median(ts[arm]):8.1f} µs (info {info}, resid {resid:.3f} n eps{'' if ok else ' BAD'})"
        for arm in ARMS[1:]:
            same = np.array_equal(out["head"][1].view(np.uint32), out[arm][1].view(np.uint32))
            bad += not same
            line += f"  {arm} {np.median(ts['head']) / np.median(ts[arm]):.3f}x, bits {'equal' if same else 'DIFFER'}"
        print(line, flush=True)
print("BAD" if bad else "every result checked; every variant's factors equal head's bit for bit")
sys.exit(1 if bad else 0)
