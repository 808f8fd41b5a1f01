# Lab (GPU machine): where a chain step's time goes (branch chain): globaltimer stamps in chain_task per step, and
# the release times of what it fetches (its partial sums, L(s, s − 2)), in chol_tiled's float32 split kernel for one
# block a multiprocessor, chain = 1 (and chain = 0 for the time), compiled as the engine compiles it (res.py, CUDA 13),
# launched as PotrfTiled launches it. $CASES: uplo x n x count.
import os, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
KN = [f"chol_tiled<float, 32, 128, {u}, true, false, 1>" for u in ("false", "true")]
names = f"{os.environ.get('CUBINS', '/tmp')}/chainprof-names.txt"
open(names, "w").write("\n".join(KN) + "\n")
os.environ["NAMES"] = names
import res
def edit(s, old, new):
    assert s.count(old) == 1, (old[:90], s.count(old))
    return s.replace(old, new)
s = open("internal/gpu/cholblocked/blocked.cu").read()
s = edit(s, "// split_tiles is N float tiles", "__device__ unsigned long long g_ch[1 << 20];\n__device__ unsigned long long g_pt[1 << 18];\n__device__ __forceinline__ unsigned long long gt() { unsigned long long v; asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(v)); return v; }\n// split_tiles is N float tiles")
s = edit(s, "        int n, nt, count;\n        int fcol;", "        int n, nt, count, m;\n        int fcol;")
s = edit(s, "lda, n, nt, count, 0};", "lda, n, nt, count, m, 0};")
s = edit(s, """        const int fcol = g_.fcol;
        const bool factor = fcol == 0;""", """        const int fcol = g_.fcol;
        const bool factor = fcol == 0;
        unsigned long long* const cs = g_ch + ((long long)g_.m * g_.nt + s) * 6;
        if (tid == 0) cs[0] = gt();""")
s = edit(s, """        int fail = 0;
        R dfail = R(0);
        if (tid >= 32) {""", """        int fail = 0;
        R dfail = R(0);
        if (tid == 0) cs[1] = gt();
        if (tid >= 32) {""")
s = edit(s, """                asm volatile("bar.sync 1, %0;" ::"n"(NT - 32) : "memory");
                const int wu = min(TS, g_.n - u * TS);""", """                asm volatile("bar.sync 1, %0;" ::"n"(NT - 32) : "memory");
                if (tid == 32) cs[2] = gt();
                const int wu = min(TS, g_.n - u * TS);""")
s = edit(s, """        if (factor)
            factor_rows<NT>(s_a, s_b, ws, s + 1 < g_.nt, fail, dfail);""", """        if (tid == 32) cs[3] = gt();
        if (factor)
            factor_rows<NT>(s_a, s_b, ws, s + 1 < g_.nt, fail, dfail);
        if (tid == 0) cs[4] = gt();""")
s = edit(s, """            if (tid == 0 && fail != 0) g_.fcol = s * TS + fail; // read after the next barrier""", """            if (tid == 0 && fail != 0) g_.fcol = s * TS + fail; // read after the next barrier
            if (tid == 0) cs[5] = gt();""")
# the partial sums' release, and tile (i, i − 2)'s
s = edit(s, """                publish(pflags + (long long)j * count + m);
                continue;""", """                publish(pflags + (long long)j * count + m);
                if (tid == 0) g_pt[((long long)m * nt + j) * 2] = gt();
                continue;""")
s = edit(s, """            if (!defer) publish(flag(i, c, m));""", """            if (!defer) publish(flag(i, c, m));
            if (tid == 0 && chain && i == c + 2) g_pt[((long long)m * nt + i) * 2 + 1] = gt();""")
t0 = time.time()
results = res.compile_all({"stamped": s})
res.report(results)
print(f"compiled in {time.time()-t0:.0f}s", flush=True)
import numpy as np, cupy as cp
name, path, info, low, msg = results[0]
mod = cp.RawModule(path=path)
by = {v: k for k, v in low.items()}
sms = cp.cuda.Device().attributes["MultiProcessorCount"]
flush = cp.empty(256 << 20, cp.uint8)
for spec in os.environ.get("CASES", "Lx1024x4,Lx4096x1,Lx512x16").split(","):
    uplo, n, count = spec.split("x"); n, count = int(n), int(count)
    f = mod.get_function(by[KN[1 if uplo == "U" else 0]])
    g = cp.random.default_rng(7).standard_normal((n, n), dtype=cp.float64)
    A = (g @ g.T) / n + cp.eye(n)
    A0 = cp.tile(A.astype(np.float32).ravel(order="F"), count)
    a = cp.empty_like(A0)
    nt = (n + 31) // 32
    tiles = nt * (nt + 1) // 2 * count
    tickets = cp.zeros(1 + tiles + nt * count, cp.int32)
    x = cp.zeros(count * nt * 1024, np.float32)
    part = cp.zeros(count * nt * 2048, np.float32)
    inf = cp.zeros(count, cp.int32)
    blocks = min(2 * sms, tiles)
    out = []
    for chain in (0, 1):
        ts = []
        for r in range(6):
            flush.fill(r); a[...] = A0; tickets.fill(0)
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            pf = tickets.data.ptr + 4 * (1 + tiles)
            f((blocks,), (128,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), inf, tickets, x,
                                  np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0),
                                  np.int64(0), np.int64(0), np.uint64((1 << 62) // count + 1), part, np.uint64(pf), np.int32(chain)))
            e1.record(); e1.synchronize()
            if r > 0: ts.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
        L = a[:n * n].reshape((n, n), order="F").astype(cp.float64)
        L = cp.triu(L).T if uplo == "U" else cp.tril(L)
        resid = float(cp.abs(L @ L.T - A).sum(axis=0).max() / cp.abs(A).sum(axis=0).max()) / (n * np.finfo(np.float32).eps)
        out.append(f"chain={chain} {np.median(ts):.1f} us (info {int(inf.get().max())}, resid {resid:.3f})")
    print(f"== {spec}: " + "  ".join(out), flush=True)
    ch = cp.ndarray((1 << 20,), cp.uint64, mod.get_global("g_ch"))[: 6 * nt * count].get().reshape(count, nt, 6).astype(np.int64)
    pt = cp.ndarray((1 << 18,), cp.uint64, mod.get_global("g_pt"))[: 2 * nt * count].get().reshape(count, nt, 2).astype(np.int64)
    t0s = ch[:, 0, 0].min()
    C = np.where(ch > 0, (ch - t0s) / 1e3, np.nan)
    P = np.where(pt > 0, (pt - t0s) / 1e3, np.nan)
    m = 0
    print("   step s: start, +pre-factor, +wait done, +fetch issued, +factor done, +stored | next start; P_{s+1} and L(s+1, s-1) released (rel. step start)")
    steps = []
    for s_ in range(nt):
        c = C[m, s_]
        nxt = C[m, s_ + 1, 0] if s_ + 1 < nt else np.nan
        steps.append(nxt - c[0])
        if s_ in (1, 2, 3, 4, 8, 16, 32, 48, 64, 96, 120, nt - 2, nt - 1):
            pu = P[m, s_ + 1] - c[0] if s_ + 1 < nt else [np.nan, np.nan]
            print(f"   s={s_:4d}: {c[0]:8.2f} {c[1]-c[0]:6.2f} {c[2]-c[0]:6.2f} {c[3]-c[0]:6.2f} {c[4]-c[0]:6.2f} {c[5]-c[0]:6.2f} | {nxt - c[0]:6.2f}; P {pu[0]:7.2f}, L {pu[1]:7.2f}")
    st = np.array(steps[1:-1])
    pre = np.nanmean(C[m, 1:, 1] - C[m, 1:, 0]); fac = np.nanmean(C[m, 1:, 4] - C[m, 1:, 1]); wt = np.nanmean(C[m, 2:-1, 2] - C[m, 2:-1, 1])
    print(f"   mean step {np.nanmean(st):.2f} us: pre-factor {pre:.2f}, factor phase {fac:.2f} (warps 1… done waiting at +{wt:.2f} into it)")
