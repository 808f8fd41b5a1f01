# Lab (GPU machine; prepared in session 56, never run): cluster.cu's float32 Cholesky, one matrix per thread-block
# cluster held in the cluster's shared memory (its header says why and how), checked, then timed against chol_tiled
# as the suite's chains run it (3xTF32, one block a multiprocessor: the route of n512 b16 and n256 b64).
#  1. Checks, both triangles, every kernel: orders on both sides of the tile edges and of the kernel's ceiling
#     (NP, NP − 1, NP − 31, NP − 32, NP − 33, 97, 33, 1), three matrices each with lda = n + 3 and a gap between
#     matrices: a random SPD one (GGᵀ/n + I), an ill-conditioned one (eigenvalues 1 … 1e-5), and one whose pivot
#     n // 2 + 1 fails (its row and column zeroed, the diagonal −1: info = n // 2 + 1, the leading minor before it
#     positive definite). Pass: info right for all three, ‖LLᵀ − A‖₁ ≤ 20·n·eps·‖A‖₁ for the two good ones, and
#     nothing outside the triangle written (the other triangle, the rows past n, the gaps).
#  2. Times (CUDA events around the launch, L2 evicted, arms interleaved, median of $REPS): the cluster kernels
#     against chol_tiled (bench/lab/tiledlab.py builds it from the tree's blocked.cu) on $CASES, uplo x n x count.
#   python3 bench/results/h200/session56/lab/cluster.py        # on the GPU machine, from the repository root
#   COMPILE_ONLY=1 …/cluster.py                                  # here (compiles cluster.cu only: see handoff.py)
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(f"{HERE}/cluster.cuh").read() + open(f"{HERE}/cluster.cu").read()
NT = 256
KERNELS = {  # name: (NP, CL, uplo)
    "chol_cluster_512_8_L": (512, 8, "L"), "chol_cluster_512_8_U": (512, 8, "U"),
    "chol_cluster_256_4_L": (256, 4, "L"), "chol_cluster_256_4_U": (256, 4, "U"),
    "chol_cluster_256_8_U": (256, 8, "U"),
}


def shared_bytes(np_, cl):
    """cluster.cu's dynamic shared memory: OWN tile columns and the panel buffer, NP rows of 33 floats each."""
    own = (np_ // 32 + cl - 1) // cl
    return (own + 1) * np_ * 33 * 4


if os.environ.get("COMPILE_ONLY"):
    sys.path.insert(0, HERE)
    from nvrtc import compile_only
    for name, (np_, cl, _) in KERNELS.items():
        print(f"{name}: {shared_bytes(np_, cl)} B of dynamic shared memory")
    sys.exit(compile_only(SRC, "cluster.cu"))

import cupy as cp
import numpy as np

mod = cp.RawModule(code=SRC, options=("-std=c++17",), backend="nvrtc")
fns = {}
for name, (np_, cl, _) in KERNELS.items():
    f = mod.get_function(name)
    f.max_dynamic_shared_size_bytes = shared_bytes(np_, cl)
    fns[name] = f
    print(f"{name}: {f.num_regs} registers, {f.local_size_bytes} B local, {shared_bytes(np_, cl)} B dynamic shared",
          flush=True)


def launch(name, a, lda, stride, n, count, info):
    np_, cl, _ = KERNELS[name]
    fns[name]((count * cl,), (NT,), (a, np.int64(lda), np.int64(stride), np.int32(n), info),
              shared_mem=shared_bytes(np_, cl))


def spd(n, kind, rng):
    if kind == "random":
        g = rng.standard_normal((n, n))
        return g @ g.T / n + np.eye(n)
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    if kind == "illcond":
        return (q * np.logspace(0, -5, n)) @ q.T
    a = spd(n, "random", rng)  # failing: pivot n // 2 + 1
    k = n // 2
    a[k, :] = a[:, k] = 0
    a[k, k] = -1
    return a


def check(name):
    np_, cl, uplo = KERNELS[name]
    rng = np.random.default_rng(5)
    eps = np.finfo(np.float32).eps
    bad = []
    worst = 0.0
    for n in sorted({np_, np_ - 1, np_ - 31, np_ - 32, np_ - 33, 97, 33, 1}, reverse=True):
        kinds = ["random", "illcond", "failing"] if n > 1 else ["random"]
        lda, count = n + 3, len(kinds)
        stride = lda * n + 5
        host = rng.standard_normal(stride * count).astype(np.float32)  # poison everywhere
        mats = [spd(n, k, rng) for k in kinds]
        for m, a in enumerate(mats):
            v = host[m * stride:m * stride + lda * n].reshape((n, lda)).T  # column-major view, lda rows
            v[:n, :] = a.astype(np.float32)
        dev = cp.asarray(host)
        info = cp.full(count, -7, cp.int32)
        launch(name, dev, lda, stride, n, count, info)
        out, inf = dev.get(), info.get()
        for m, (kind, a) in enumerate(zip(kinds, mats)):
            want = n // 2 + 1 if kind == "failing" else 0
            if inf[m] != want:
                bad.append(f"n={n} {kind}: info {inf[m]}, want {want}")
                continue
            v0 = host[m * stride:m * stride + lda * n].reshape((n, lda)).T
            v1 = out[m * stride:m * stride + lda * n].reshape((n, lda)).T
            keep = np.triu(np.ones((n, n), bool), 1) if uplo == "L" else np.tril(np.ones((n, n), bool), -1)
            if not np.array_equal(v0[:n][keep], v1[:n][keep]) or not np.array_equal(v0[n:], v1[n:]):
                bad.append(f"n={n} {kind}: wrote outside its triangle")
            if kind != "failing":
                l = np.tril(v1[:n].astype(np.float64)) if uplo == "L" else np.triu(v1[:n].astype(np.float64)).T
                r = np.abs(l @ l.T - a).sum(axis=0).max() / (np.abs(a).sum(axis=0).max() * n * eps)
                worst = max(worst, r)
                if not r <= 20:
                    bad.append(f"n={n} {kind}: residual {r:.3g} n·eps")
        gaps = [host[m * stride + lda * n:(m + 1) * stride] for m in range(count)]
        if any(not np.array_equal(g, out[m * stride + lda * n:(m + 1) * stride]) for m, g in enumerate(gaps)):
            bad.append(f"n={n}: wrote into the gaps between matrices")
    print(f"{name}: {'PASS' if not bad else 'FAIL'}, worst residual {worst:.3f} n·eps (bound 20)"
          + "".join(f"\n  {b}" for b in bad[:12]), flush=True)
    return not bad


ok = all([check(name) for name in KERNELS])
if not ok:
    print("a check failed: no timing")
    sys.exit(1)

sys.path.insert(0, "bench/lab")
import tiledlab as tl

KN = {(u, 1): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, true, false, 1>" for u in "LU"}
tiled = tl.functions(tl.build({"tiled": open("internal/gpu/cholblocked/blocked.cu").read()}, KN), KN)
reps = int(os.environ.get("REPS", "7"))
flush = cp.empty(256 << 20, cp.uint8)
sms = cp.cuda.Device().attributes["MultiProcessorCount"]
for spec in os.environ.get("CASES", "Ux512x16,Lx512x16,Ux256x64,Lx256x64,Ux512x4,Ux256x16").split(","):
    uplo, n, count = spec.split("x")
    n, count = int(n), int(count)
    c = tl.Case(n, count, uplo)
    arms = {"chol_tiled": None}
    arms.update({k: v for k, v in KERNELS.items() if v[2] == uplo and v[0] >= n and v[0] - 32 < n})
    ts = {a: [] for a in arms}
    res = {}
    for r in range(reps + 1):
        for a in arms:
            flush.fill(r)
            c.reset()
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            if a == "chol_tiled":
                tiled[("tiled", (uplo, 1))]((min(2 * sms, c.tiles),), (128,), c.args(), shared_mem=tl.split_shared_bytes(1))
            else:
                launch(a, c.a, n, n * n, n, count, c.info)
            e1.record()
            e1.synchronize()
            if r:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps:
                res[a] = c.check()
    head = float(np.median(ts["chol_tiled"]))
    print(f"{uplo} n{n} b{count}: " + "  ".join(
        f"{a} {np.median(ts[a]):8.1f} µs ({np.median(ts[a]) / head:.2f}; info {res[a][0]}, residual {res[a][1]:.3f})"
        for a in arms), flush=True)
