# Lab: chol_tiled's variants (text edits of blocked.cu): resources, then times (CUDA events, L2 evicted, median) with checks.
import os, sys, time
sys.path.insert(0, os.path.dirname(__file__))
from common import *

V = {"head": BLK}
LOW = ("                mma_tf32(low[f], ah, l0, l1);", "                mma_tf32(low2[f], ah, l0, l1);")
V["lowsplit"] = edit(edit(edit(BLK, "float acc[2][4], low[2][4];", "float acc[2][4], low[2][4], low2[2][4];"),
    "acc[f][e] = v[2 * f + e / 2][e % 2], low[f][e] = 0.0f;", "acc[f][e] = v[2 * f + e / 2][e % 2], low[f][e] = 0.0f, low2[f][e] = 0.0f;"),
    *LOW)
V["lowsplit"] = edit(V["lowsplit"], "v[2 * f + e / 2][e % 2] = acc[f][e] + low[f][e];", "v[2 * f + e / 2][e % 2] = acc[f][e] + (low[f][e] + low2[f][e]);")
only = os.environ.get("VARIANTS")
if only:
    V = {k: v for k, v in V.items() if k in only.split(",")}
names = [KN[("U", 1)], KN[("L", 1)]]
fns = {}
for name, code in V.items():
    t0 = time.time()
    fns[name] = build(code, names)
    print(f"variant {name}: {time.time()-t0:.1f}s;", "; ".join(f"{k}: {f.num_regs} regs {f.local_size_bytes} B" for k, f in fns[name].items()), flush=True)
cases = [tuple(c.split("x")) for c in os.environ.get("CASES", "Lx2048x8,Ux2048x8,Lx4096x1,Ux4096x1,Lx1024x60").split(",")]
reps = int(os.environ.get("REPS", "3"))
flush = cp.empty(256 << 20, cp.uint8)
for uplo, n, count in cases:
    c = Case(int(n), int(count), uplo)
    out = []
    for name in V:
        f = fns[name][KN[(uplo, 1)]]
        t = timed(c, f, reps, flush)
        info, resid = c.check()
        out.append(f"{name} {t:8.1f} (info {info}, {resid:.3f})")
    print(f"{uplo} 3xTF32 n{n} b{count}: " + "  ".join(out), flush=True)
