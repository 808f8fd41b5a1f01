# Lab: chol_tiled's resources for variants of blocked.cu (text edits), then times of those without local memory.
import os, time
import numpy as np, cupy as cp

pre = open("internal/gpu/scalar/scalar.cuh").read()
blk = open("internal/gpu/cholblocked/blocked.cu").read()
def edit(s, old, new):
    assert s.count(old) >= 1, old
    return s.replace(old, new)
SW8 = "if ((c - c0) % 8 == 0) __syncwarp();"
SW4 = "if ((c - c0) % 4 == 0) __syncwarp();"
K4 = "            for (int k4 = 0; k4 < N; k4 += 4) {\n"
K4S = "            for (int k4 = 0; k4 < N; k4 += 4) {\n                __syncwarp();\n"
V = {"head": open("build/lab/blocked_head.cu").read(), "final": blk}
only = os.environ.get("VARIANTS")
if only:
    V = {k: v for k, v in V.items() if k in only.split(",")}
kn = [f"chol_tiled<float, 32, 128, {u}, {s}, false>" for u in ("true", "false") for s in ("false", "true")]
mods = {}
for name, code in V.items():
    t0 = time.time()
    m = cp.RawModule(code=pre + code, options=("-std=c++17",), name_expressions=kn)
    fns = {k: m.get_function(k) for k in kn}
    print(f"variant {name}: {time.time()-t0:.1f}s;", "; ".join(f"{k.split('<')[1][:-1]}: {fns[k].num_regs} regs {fns[k].local_size_bytes} B" for k in kn), flush=True)
    mods[name] = (fns, 0)
cases = [(256, 1, 0), (256, 64, 0), (512, 16, 0), (1024, 1, 0), (512, 16, 1), (1024, 4, 1), (2048, 2, 1), (4096, 1, 1), (1024, 1, 2), (2048, 2, 3), (4096, 1, 3)]
reps = int(os.environ.get("REPS", "5"))
flush = cp.empty(256 << 20, cp.uint8)
for n, count, split in cases:
    k = kn[split]
    g = cp.random.default_rng(7).standard_normal((n, n), dtype=cp.float64)
    A = (g @ g.T) / n + cp.eye(n)
    A0 = cp.tile(A.astype(np.float32).ravel(order="F"), count)
    a = cp.empty_like(A0)
    nt = (n + 31) // 32
    tickets = cp.zeros(1 + nt * (nt + 1) // 2 * count, cp.int32)
    x = cp.zeros(count * nt * 1024, np.float32)
    info = cp.zeros(count, cp.int32)
    blocks = min(264, nt * (nt + 1) // 2 * count)
    res = []
    for vname, (fns, loc) in mods.items():
        f = fns[k]
        ts = []
        for r in range(reps + 1):
            a[...] = A0; tickets.fill(0); flush.fill(r)
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            f((blocks,), (128,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info, tickets, x,
                                  np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0), np.int64(0), np.int64(0)))
            e1.record(); e1.synchronize()
            if r > 0: ts.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
        L = a[:n * n].reshape((n, n), order="F").astype(cp.float64)
        L = cp.triu(L).T if split < 2 else cp.tril(L)
        resid = float(cp.abs(L @ L.T - A).sum(axis=0).max() / cp.abs(A).sum(axis=0).max()) / (n * np.finfo(np.float32).eps)
        res.append(f"{vname} {np.median(ts):8.1f} (info {int(info.get().max())}, {resid:.3f})")
    print(f"n{n} b{count} {'Upper' if split < 2 else 'Lower'} {'3xTF32' if split % 2 else 'exact'}: " + "  ".join(res), flush=True)
