# Lab: chol_tiled timed from Python with variants of blocked.cu (text edits), and their resources.
import ctypes, os, subprocess, sys, time
import numpy as np, cupy as cp

root = "."
out = os.environ.get("OUT", "/tmp")
pre = open(f"{root}/internal/gpu/scalar/scalar.cuh").read()
blk = open(f"{root}/internal/gpu/cholblocked/blocked.cu").read()
head = open("build/lab/blocked_head.cu").read()
DEC = """        int j = 0;
        while (pos >= (j == wt - 1 ? nt - j : nt - j - 1)) pos -= nt - j++ - 1;
        const bool diag = pos == 0;
        const int i = diag ? j : j + (int)pos + (j == wt - 1 ? 0 : 1);
"""
SHIFT = """        int j = 0; // group g: diagonal g, then tiles (i, g - 1), i >= g + 1 (PotrfTiled only)
        while (pos >= (j == 0 ? 1 : nt - j)) pos -= (j == 0 ? 1 : nt - j), ++j;
        const bool diag = pos == 0;
        const int i = diag ? j : j + (int)pos;
        if (!diag) --j;
"""
assert DEC in head
variants = {"head": head, "shift": head.replace(DEC, SHIFT), "new": blk}
only = os.environ.get("VARIANTS")
if only:
    variants = {k: v for k, v in variants.items() if k in only.split(",")}
kn = ["chol_tiled<float, 32, 128, true, false, false>", "chol_tiled<float, 32, 128, true, true, false>",
      "chol_tiled<float, 32, 128, false, false, false>", "chol_tiled<double, 32, 128, false, false, false>",
      "chol_tiled<double, 32, 128, true, false, false>", "chol_tiled<cfloat, 32, 128, false, false, false>",
      "chol_tiled<float, 32, 128, true, true, true>", "chol_tiled<double, 32, 128, true, false, true>", "chol_tiled<cfloat, 32, 128, true, false, true>", "chol_tiled<float, 32, 128, false, true, true>"]
mods = {}
for name, code in variants.items():
    t0 = time.time()
    kv = kn if name == "new" else kn[:1] + kn[1:2] + kn[3:4]
    m = cp.RawModule(code=pre + code, options=("-std=c++17",), name_expressions=kv)
    fns = {k: m.get_function(k) for k in kv}
    line = []
    for k in kv:
        f = fns[k]
        line.append(f"{k.split('<')[1][:-1]}: {f.num_regs} regs {f.local_size_bytes} B local")
    print(f"variant {name}: compiled in {time.time()-t0:.1f}s;", "; ".join(line), flush=True)
    mods[name] = fns

cases = [(256, 1), (256, 64), (512, 16), (1024, 1), (1024, 4), (2048, 2), (4096, 1)]
kinds = [("float", "Upper", "exact", "chol_tiled<float, 32, 128, true, false, false>"), ("float", "Lower", "3xTF32", "chol_tiled<float, 32, 128, false, true, false>"),
         ("float", "Upper", "3xTF32", "chol_tiled<float, 32, 128, true, true, false>"),
         ("double", "Lower", "exact", "chol_tiled<double, 32, 128, false, false, false>")]
sel = os.environ.get("CASES")
if sel:
    cases = [tuple(map(int, c.split("x"))) for c in sel.split(",")]
reps = int(os.environ.get("REPS", "7"))
flush = cp.empty(256 << 20, cp.uint8)
for n, count in cases:
    for dts, uplo, prec, k in kinds:
        if (dts == "double" or prec == "exact") and n > 1024 or prec == "3xTF32" and n < 512 or uplo == "Lower" and dts == "float":
            continue
        dt = np.float32 if dts == "float" else np.float64
        g = cp.random.default_rng(7).standard_normal((n, n), dtype=cp.float64)
        A = (g @ g.T) / n + cp.eye(n)
        A0 = cp.tile(A.astype(dt).ravel(order="F"), count)
        a = cp.empty_like(A0)
        nt = (n + 31) // 32
        tiles = nt * (nt + 1) // 2 * count
        tickets = cp.zeros(1 + tiles, cp.int32)
        x = cp.zeros(count * nt * 1024, dt)
        info = cp.zeros(count, cp.int32)
        blocks = min(2 * 132, tiles)
        res = {}
        for vname, fns in mods.items():
            f = fns[k]
            ts = []
            for r in range(reps + 1):
                a[...] = A0
                tickets.fill(0)
                flush.fill(r)
                e0, e1 = cp.cuda.Event(), cp.cuda.Event()
                e0.record()
                f((blocks,), (128,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info, tickets, x,
                                      np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0), np.int64(0), np.int64(0)))
                e1.record(); e1.synchronize()
                if r > 0:
                    ts.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            L = a[:n * n].reshape((n, n), order="F").astype(cp.float64)
            L = cp.tril(L) if uplo == "Lower" else cp.triu(L).T
            resid = float(cp.abs(L @ L.T - A).sum(axis=0).max() / cp.abs(A).sum(axis=0).max()) / (n * np.finfo(dt).eps)
            res[vname] = (np.median(ts), int(info.get().max()), resid)
        print(f"n{n} b{count} {dts} {uplo} {prec}: " + "  ".join(f"{v} {t:8.1f} us (info {i}, resid {r:.3f} n eps)" for v, (t, i, r) in res.items()), flush=True)
