# Lab (GPU machine): chol_tiled's whole-matrix float kernels of var6.py's variants, built for one block a
# multiprocessor (MIN_BLOCKS = 1, factor_rows, grid 2 × SMs) and for four (MIN_BLOCKS = 4, factor_subblocks, grid
# 4 × SMs), compiled as the engine compiles them (res.py, CUDA 13's NVRTC), launched as PotrfTiled launches them:
# CUDA events, L2 evicted, median of $REPS, every result checked (info, and ‖LLᵀ − A‖₁ / (‖A‖₁·n·eps) in brackets).
# $CASES: uplo x split x n x count, comma-separated; $VARIANTS: var6.py's names.
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
HERE = os.path.dirname(os.path.abspath(__file__))
KN = {(u, s, mb): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, {'true' if s else 'false'}, false, {mb}>"
      for u in "LU" for s in (0, 1) for mb in (1, 4)}
names = f"{os.environ.get('CUBINS', '/tmp')}/lab20-names.txt"
open(names, "w").write("\n".join(KN.values()) + "\n")
os.environ["NAMES"] = names
from res import compile_all, report
from var6 import V

def divmagic(d):
    return (1 << 62) // d + 1

class Case:
    def __init__(self, cp, n, count, uplo):
        import numpy as np
        self.np = np
        self.cp, self.n, self.count, self.uplo = cp, n, count, uplo
        g = cp.random.default_rng(7).standard_normal((n, n), dtype=cp.float64)
        self.A = (g @ g.T) / n + cp.eye(n)
        self.A0 = cp.tile(self.A.astype(np.float32).ravel(order="F"), count)
        self.a = cp.empty_like(self.A0)
        nt = (n + 31) // 32
        self.tiles = nt * (nt + 1) // 2 * count
        self.tickets = cp.zeros(1 + self.tiles, cp.int32)
        self.x = cp.zeros(count * nt * 1024, np.float32)
        self.info = cp.zeros(count, cp.int32)

    def args(self):
        n, np = self.n, self.np
        return (self.a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(self.count), self.info, self.tickets, self.x,
                np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0), np.int64(0),
                np.int64(0), np.uint64(divmagic(self.count)))

    def timed(self, f, blocks, reps, flush):
        cp, np = self.cp, self.np
        ts = []
        for r in range(reps + 1):
            flush.fill(r)
            self.a[...] = self.A0
            self.tickets.fill(0)
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            f((blocks,), (128,), self.args())
            e1.record(); e1.synchronize()
            if r > 0:
                ts.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
        return float(np.median(ts))

    def check(self):
        cp, n, np = self.cp, self.n, self.np
        worst = 0.0
        for m in {0, self.count - 1}:
            L = self.a[m * n * n:(m + 1) * n * n].reshape((n, n), order="F").astype(cp.float64)
            L = cp.triu(L).T if self.uplo == "U" else cp.tril(L)
            worst = max(worst, float(cp.abs(L @ L.T - self.A).sum(axis=0).max() / cp.abs(self.A).sum(axis=0).max()) / (n * np.finfo(np.float32).eps))
        return int(self.info.get().max()), worst

if __name__ == "__main__":
    only = os.environ.get("VARIANTS", "base,ldsm,ldsm2").split(",")
    t0 = time.time()
    results = compile_all({k: V[k] for k in only})
    report(results)
    print(f"compiled in {time.time() - t0:.0f}s", flush=True)
    if os.environ.get("COMPILE_ONLY"):
        sys.exit(0)
    import numpy as np, cupy as cp
    fns = {}
    for name, path, info, low, msg in results:
        if path is None:
            continue
        mod = cp.RawModule(path=path)
        by = {v: k for k, v in low.items()}
        fns[name] = {key: (mod.get_function(by[expr]), info[expr]) for key, expr in KN.items()}
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    flush = cp.empty(256 << 20, cp.uint8)
    reps = int(os.environ.get("REPS", "3"))
    cases = os.environ.get("CASES", "Lx1x2048x8,Ux1x2048x8,Lx1x1024x60,Ux1x1024x60,Ux1x512x640,Lx1x4096x1,Ux1x4096x1,Ux1x2048x2,"
                           "Ux1x1024x4,Ux1x512x16,Ux0x512x640,Ux0x256x64,Ux0x512x16,Lx1x1000x3")
    for spec in cases.split(","):
        uplo, split, n, count = spec.split("x")
        c = Case(cp, int(n), int(count), uplo)
        out = []
        for name in fns:
            for mb in (1, 4):
                f, (regs, local, frame) = fns[name][(uplo, int(split), mb)]
                blocks = min((2 if mb == 1 else 4) * sms, c.tiles)
                t = c.timed(f, blocks, reps, flush)
                info, resid = c.check()
                warn = f"[{local}+{frame} B]" if local or frame else ""
                out.append(f"{name}/{mb}{warn} {t:8.1f} ({info}, {resid:.3f})")
        print(f"{uplo} {'3xTF32' if int(split) else 'exact'} n{n} b{count}: " + "  ".join(out), flush=True)
