# Lab (GPU machine): where chol_tiled's time goes now, from globaltimer stamps per task (session 18's tiledprof.py
# brought to session 20's kernel: MIN_BLOCKS, magic, deferred store). Float32 whole-matrix kernels, compiled by
# CUDA 13's NVRTC as the engine compiles them (res.py), launched as PotrfTiled launches them. $CASES: uplo x split x
# n x count x minblocks.
import os, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
KN = [f"chol_tiled<float, 32, 128, {u}, true, false, {mb}>" for u in ("false", "true") for mb in (1, 4)]
names = f"{os.environ.get('CUBINS', '/tmp')}/prof21-names.txt"
open(names, "w").write("\n".join(KN) + "\n")
os.environ["NAMES"] = names
import res

def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)

s = open("internal/gpu/cholblocked/blocked.cu").read()
K = "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__"
s = edit(s, K, "__device__ unsigned long long g_st[6 << 17];\n__device__ __forceinline__ unsigned long long gt() { unsigned long long v; asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(v)); return v; }\n" + K)
s = edit(s, "        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)\n",
         "        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)\n        unsigned long long st0 = gt(), st1 = 0, st2 = 0, st3 = 0, st4 = 0;\n")
s = edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n", "        st1 = gt();\n        int f = j0 > 0 ? ld_cg(info + m) : 0;\n")
s = edit(s, "            f = ld_cg(info + m);\n            const int lim", "            f = ld_cg(info + m);\n            st2 = gt();\n            const int lim")
s = edit(s, "            if (!defer) publish(flag(i, c, m));\n        }\n", "            if (!defer) publish(flag(i, c, m));\n            st3 = gt();\n        }\n")
s = edit(s, "            int fail;\n            R dfail;\n", "            int fail;\n            R dfail;\n            st4 = gt();\n")
s = edit(s, "        if (diag) publish(flag(j, j, m));\n", "        if (diag) publish(flag(j, j, m));\n        if (tid == 0 && t < (1 << 17)) { unsigned long long* q = g_st + 6 * t; q[0] = st0; q[1] = st1; q[2] = st2; q[3] = st3; q[4] = st4; q[5] = gt(); }\n")
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
out = os.environ.get("OUT", "/tmp")
for spec in os.environ.get("CASES", "Ux1x4096x1x1,Ux1x4096x1x4,Ux1x2048x2x1,Ux1x1024x4x1").split(","):
    uplo, split, n, count, mb = spec.split("x")
    n, count, mb = int(n), int(count), int(mb)
    k = f"chol_tiled<float, 32, 128, {'true' if uplo == 'U' else 'false'}, true, false, {mb}>"
    f = mod.get_function(by[k])
    g = cp.random.default_rng(7).standard_normal((n, n), dtype=cp.float64)
    A = (g @ g.T) / n + cp.eye(n)
    A0 = cp.tile(A.astype(np.float32).ravel(order="F"), count)
    a = cp.empty_like(A0)
    nt = (n + 31) // 32
    tiles = nt * (nt + 1) // 2 * count
    tickets = cp.zeros(1 + tiles, cp.int32)
    x = cp.zeros(count * nt * 1024, np.float32)
    inf = cp.zeros(count, cp.int32)
    blocks = min((2 if mb == 1 else 4) * sms, tiles)
    ts = []
    for r in range(4):
        flush.fill(r); a[...] = A0; tickets.fill(0)
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record()
        f((blocks,), (128,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), inf, tickets, x,
                              np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0),
                              np.int64(0), np.int64(0), np.uint64((1 << 62) // count + 1)))
        e1.record(); e1.synchronize()
        if r > 0: ts.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
    L = a[:n * n].reshape((n, n), order="F").astype(cp.float64)
    L = cp.triu(L).T if uplo == "U" else cp.tril(L)
    resid = float(cp.abs(L @ L.T - A).sum(axis=0).max() / cp.abs(A).sum(axis=0).max()) / (n * np.finfo(np.float32).eps)
    ntask = nt * (nt - 1) // 2 + 1
    st = cp.ndarray((6 << 17,), cp.uint64, mod.get_global("g_st"))[: 6 * ntask * count].get().reshape(-1, 6).astype(np.int64)
    t0s = st[:, 0].min()
    st = np.where(st > 0, st - t0s, -1)
    print(f"== {spec}: {np.median(ts):.1f} us (min {min(ts):.1f}), info {int(inf.get().max())}, resid {resid:.3f} n eps; last stamp {st[:,5].max()/1e3:.1f} us; {blocks} blocks", flush=True)
    diag = st[:, 4] >= 0
    loop = (st[:, 1] - st[:, 0]) / 1e3
    wait = np.where(st[:, 2] >= 0, (st[:, 2] - st[:, 1]) / 1e3, 0)
    total = (st[:, 5] - st[:, 0]) / 1e3
    print(f"   tasks {len(st)}: sum loop {loop.sum():.0f} us, wait-for-X {wait.sum():.0f}, busy {total.sum():.0f} us = {total.sum()/blocks/(st[:,5].max()/1e3)*100:.0f} % of blocks x span")
    dj = np.nonzero(diag)[0]
    if count > 1: dj = dj[dj % count == 0]
    D = st[dj]
    R = []
    for jj in range(1, len(D)):
        s0, s1, s2, s3, s4, s5 = D[jj] / 1e3
        pe = D[jj - 1][5] / 1e3
        R.append((jj, s0 - pe, s1 - pe, s2 - pe, s4 - pe, s5 - pe, s1 - s0))
    R = np.array(R)
    print("   diag j: start, loop end, X seen, factor start, end (us after the previous diag end); loop length")
    for q in sorted(set([1, 2, 4, 8, 16, 32, 48, 64, 80, 96, 112, 120, 126, len(D) - 1])):
        if q < len(D):
            r = R[q - 1]
            print(f"   j={int(r[0]):4d}: {r[1]:8.2f} {r[2]:8.2f} {r[3]:8.2f} {r[4]:8.2f} {r[5]:8.2f}   loop {r[6]:7.2f}")
    late = R[:, 2] > 0
    print(f"   steps: mean {R[:,5].mean():.2f} us; loop ends after previous end in {late.sum()} of {len(R)} (mean by {R[late,2].mean() if late.any() else 0:.2f}); "
          f"sum of lateness {np.maximum(R[:,2],0).sum():.0f} us; mean X seen {R[:,3].mean():.2f}, factor start {R[:,4].mean():.2f}, end {R[:,5].mean():.2f}")
    # how busy were the blocks near the end of each step: tasks running at the time each diag started
    np.save(f"{out}/st_{spec}.npy", st)
