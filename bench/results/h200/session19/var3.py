# Lab: chol_tiled's occupancy and instruction variants: resources of the four float kernels, then times (CUDA events, L2 evicted, median) with checks.
import os, sys, time
sys.path.insert(0, os.path.dirname(__file__))
from common import *

LB = "__global__ void __launch_bounds__(NT, 1)\n    chol_tiled("
def lb(code, b):
    return edit(code, LB, LB.replace("(NT, 1)", f"(NT, {b})"))
def neg(code):
    code = edit(code, "acc[f][e] = v[2 * f + e / 2][e % 2], low[f][e] = 0.0f;", "acc[f][e] = SUB ? -v[2 * f + e / 2][e % 2] : v[2 * f + e / 2][e % 2], low[f][e] = 0.0f;")
    code = edit(code, "const float x = SUB ? -pa[e] : pa[e];", "const float x = pa[e];")
    return edit(code, "v[2 * f + e / 2][e % 2] = acc[f][e] + low[f][e];", "v[2 * f + e / 2][e % 2] = SUB ? -(acc[f][e] + low[f][e]) : acc[f][e] + low[f][e];")
HEAD = open("build/lab19/head.cu").read()
V = {"head": (HEAD, 2), "rows": (BLK, 2), "rows-lb3": (lb(BLK, 3), 3), "rows-neg": (neg(BLK), 2)}
only = os.environ.get("VARIANTS")
if only:
    V = {k: v for k, v in V.items() if k in only.split(",")}
names = list(KN.values())
fns = {}
for name, (code, per) in V.items():
    t0 = time.time()
    try:
        fns[name] = build(code, names)
    except Exception as e:
        print(f"variant {name}: {e}"[:600], flush=True)
        continue
    print(f"variant {name} ({per} blocks an SM): {time.time()-t0:.1f}s;", "; ".join(f"{k[11:-1]}: {f.num_regs} regs {f.local_size_bytes} B" for k, f in fns[name].items()), flush=True)
cases = [tuple(c.split("x")) for c in os.environ.get("CASES", "Lx1x2048x8,Ux1x2048x8,Lx1x4096x1,Ux1x4096x1,Lx1x1024x60,Ux1x1024x4,Ux1x2048x2,Ux0x256x64,Ux0x512x16,Ux0x1024x1").split(",")]
reps = int(os.environ.get("REPS", "3"))
flush = cp.empty(256 << 20, cp.uint8)
for uplo, split, n, count in cases:
    c = Case(int(n), int(count), uplo)
    tiles = c.blocks if c.blocks < 264 else None
    out = []
    for name, (code, per) in V.items():
        if name not in fns:
            continue
        f = fns[name][KN[(uplo, int(split))]]
        if f.local_size_bytes:
            out.append(f"{name} spills")
            continue
        nt = (int(n) + 31) // 32
        c.blocks = min(132 * per, nt * (nt + 1) // 2 * int(count))
        t = timed(c, f, reps, flush)
        info, resid = c.check()
        out.append(f"{name} {t:8.1f} ({info}, {resid:.3f})")
    print(f"{uplo} {'3xTF32' if int(split) else 'exact'} n{n} b{count}: " + "  ".join(out), flush=True)
