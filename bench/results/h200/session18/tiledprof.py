# Lab: where chol_tiled's time goes, from globaltimer stamps per task, with variants of the ticket order.
import os, time
import numpy as np, cupy as cp

pre = open("internal/gpu/scalar/scalar.cuh").read()
blk = open("internal/gpu/cholblocked/blocked.cu").read()

def edit(s, old, new, count=1, need=True):
    if not need and s.count(old) == 0:
        return s
    assert s.count(old) == count, (old, s.count(old))
    return s.replace(old, new)

K = "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL>\n__global__"
s = edit(blk, K, "__device__ unsigned long long g_st[6 << 17];\n__device__ __forceinline__ unsigned long long gt() { unsigned long long v; asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(v)); return v; }\n" + K)
s = edit(s, "        if (t >= tasks) return; // uniform\n", "        if (t >= tasks) return; // uniform\n        unsigned long long st0 = gt(), st1 = 0, st2 = 0, st3 = 0, st4 = 0;\n")
s = edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n", "        st1 = gt();\n        int f = j0 > 0 ? ld_cg(info + m) : 0;\n")
s = edit(s, "            f = ld_cg(info + m);\n            const int lim", "            f = ld_cg(info + m);\n            st2 = gt();\n            const int lim")
s = edit(s, "            publish(flag(i, c, m));\n        }\n", "            publish(flag(i, c, m));\n            st3 = gt();\n        }\n", need=False)
s = edit(s, "            int fail;\n            R dfail;\n", "            int fail;\n            R dfail;\n            st4 = gt();\n")
s = edit(s, "        if (diag) publish(flag(j, j, m));\n", "        if (diag) publish(flag(j, j, m));\n        if (tid == 0 && t < (1 << 17)) { unsigned long long* q = g_st + 6 * t; q[0] = st0; q[1] = st1; q[2] = st2; q[3] = st3; q[4] = st4; q[5] = gt(); }\n")
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
variants = {"new": s} if DEC not in s else {"new": s, "shift": edit(s, DEC, SHIFT)}
only = os.environ.get("VARIANTS")
if only:
    variants = {k: v for k, v in variants.items() if k in only.split(",")}
kn = ["chol_tiled<float, 32, 128, true, false, false>", "chol_tiled<float, 32, 128, true, true, false>"]
mods = {}
for name, code in variants.items():
    t0 = time.time()
    m = cp.RawModule(code=pre + code, options=("-std=c++17",), name_expressions=kn)
    fns = {k: m.get_function(k) for k in kn}
    print(f"variant {name}: compiled in {time.time()-t0:.1f}s;", "; ".join(f"{k.split('<')[1][:-1]}: {fns[k].num_regs} regs {fns[k].local_size_bytes} B local" for k in kn), flush=True)
    mods[name] = (m, fns)

cases = [(1024, 1, 0), (2048, 2, 1), (4096, 1, 1)]
sel = os.environ.get("CASES")
if sel:
    cases = [tuple(map(int, c.split("x"))) for c in sel.split(",")]
reps = int(os.environ.get("REPS", "5"))
flush = cp.empty(256 << 20, cp.uint8)
for n, count, split in cases:
    k = kn[split]
    dt = np.float32
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
    for vname, (mod, fns) in mods.items():
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
        L = cp.triu(L).T
        resid = float(cp.abs(L @ L.T - A).sum(axis=0).max() / cp.abs(A).sum(axis=0).max()) / (n * np.finfo(dt).eps)
        ntask = nt * (nt - 1) // 2 + 1
        ptr = mod.get_global("g_st")
        st = cp.ndarray((6 << 17,), cp.uint64, ptr)[: 6 * ntask * count].get().reshape(-1, 6).astype(np.int64)
        t0 = st[:, 0].min()
        st = np.where(st > 0, st - t0, -1)
        print(f"== n{n} b{count} {'3xTF32' if split else 'exact'} {vname}: {np.median(ts):.1f} us (min {min(ts):.1f}), info {int(info.get().max())}, resid {resid:.3f} n eps; last stamp {st[:,5].max()/1e3:.1f} us", flush=True)
        # every task: busy = loop (st1-st0), wait for X (st2-st1), solve (st3-st2); diag rows have st4
        diag = st[:, 4] >= 0
        loop = (st[:, 1] - st[:, 0]) / 1e3
        wait = np.where(st[:, 2] >= 0, (st[:, 2] - st[:, 1]) / 1e3, 0)
        print(f"   all tasks: {len(st)}; sum loop {loop.sum():.0f} us, sum wait-for-X {wait.sum():.0f} us, sum total {((st[:,5]-st[:,0])/1e3).sum():.0f} us over {blocks} blocks")
        # the diagonal chain of matrix 0
        dj = np.nonzero(diag)[0]
        if count > 1:
            dj = dj[dj % count == 0]
        D = st[dj]
        ends = D[:, 5]
        rows = []
        for jj in range(1, len(D)):
            s0, s1, s2, s3, s4, s5 = D[jj] / 1e3
            pe = ends[jj - 1] / 1e3
            rows.append((jj, s0 - pe, s1 - pe, s2 - pe, s4 - pe, s5 - pe, s1 - s0))
        R = np.array(rows)
        print("   diag j: start, loop end, X seen, factor start, end  (us after the previous diag end); loop length")
        for q in sorted(set([1, 2, 4, 8, 16, 32, 48, 64, 80, 96, 112, 120, 126, len(D) - 1])):
            if q < len(D):
                r = R[q - 1]
                print(f"   j={int(r[0]):4d}: {r[1]:8.2f} {r[2]:8.2f} {r[3]:8.2f} {r[4]:8.2f} {r[5]:8.2f}   loop {r[6]:7.2f}")
        late = R[:, 2] > 0
        print(f"   steps: mean {R[:,5].mean():.2f} us; loop ends after previous end in {late.sum()} of {len(R)} (mean by {R[late,2].mean() if late.any() else 0:.2f} us); mean X seen {R[:,3].mean():.2f}, factor start {R[:,4].mean():.2f}, end {R[:,5].mean():.2f}")
        np.save(f"{os.environ.get('OUT','/tmp')}/st_n{n}b{count}_{vname}.npy", st)
