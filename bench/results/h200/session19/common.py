# Lab helpers: chol_tiled compiled from blocked.cu (optionally edited) with CuPy, launched as PotrfTiled launches it.
import os, numpy as np, cupy as cp

PRE = open("internal/gpu/scalar/scalar.cuh").read()
BLK = open("internal/gpu/cholblocked/blocked.cu").read()
KN = {("U", 0): "chol_tiled<float, 32, 128, true, false, false>", ("U", 1): "chol_tiled<float, 32, 128, true, true, false>",
      ("L", 0): "chol_tiled<float, 32, 128, false, false, false>", ("L", 1): "chol_tiled<float, 32, 128, false, true, false>"}

def edit(s, old, new, count=1):
    assert s.count(old) == count, (s.count(old), old)
    return s.replace(old, new)

def build(code, names, lineinfo=False):
    opts = ("-std=c++17", "-lineinfo") if lineinfo else ("-std=c++17",)
    m = cp.RawModule(code=PRE + code, options=opts, name_expressions=names)
    return {k: m.get_function(k) for k in names}

class Case:
    def __init__(self, n, count, uplo):
        self.n, self.count, self.uplo = n, count, uplo
        g = cp.random.default_rng(7).standard_normal((n, n), dtype=cp.float64)
        self.A = (g @ g.T) / n + cp.eye(n)
        self.A0 = cp.tile(self.A.astype(np.float32).ravel(order="F"), count)
        self.a = cp.empty_like(self.A0)
        nt = (n + 31) // 32
        self.tickets = cp.zeros(1 + nt * (nt + 1) // 2 * count, cp.int32)
        self.x = cp.zeros(count * nt * 1024, np.float32)
        self.info = cp.zeros(count, cp.int32)
        self.blocks = min(264, nt * (nt + 1) // 2 * count)

    def launch(self, f):
        n = self.n
        self.a[...] = self.A0
        self.tickets.fill(0)
        f((self.blocks,), (128,), (self.a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(self.count), self.info, self.tickets, self.x,
                                   np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0), np.int64(0), np.int64(0)))

    def check(self):
        n = self.n
        L = self.a[:n * n].reshape((n, n), order="F").astype(cp.float64)
        L = cp.triu(L).T if self.uplo == "U" else cp.tril(L)
        resid = float(cp.abs(L @ L.T - self.A).sum(axis=0).max() / cp.abs(self.A).sum(axis=0).max()) / (n * np.finfo(np.float32).eps)
        return int(self.info.get().max()), resid

def timed(case, f, reps, flush):
    ts = []
    for r in range(reps + 1):
        flush.fill(r)
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        case.a[...] = case.A0
        case.tickets.fill(0)
        e0.record()
        n = case.n
        f((case.blocks,), (128,), (case.a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(case.count), case.info, case.tickets, case.x,
                                   np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0), np.int64(0), np.int64(0)))
        e1.record(); e1.synchronize()
        if r > 0:
            ts.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
    return float(np.median(ts))
