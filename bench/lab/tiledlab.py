"""tiledlab: what the GPU machine's labs on chol_tiled (internal/gpu/cholblocked/blocked.cu) share.

Labs up to session 33's copied this scaffolding (bench/results/h200/session20/gpu_lab.py, session33/lab/pairs.py);
new ones import it:

    import os, sys
    sys.path.insert(0, "bench/lab")
    import tiledlab as tl

    kernels = {("U", 4): "chol_tiled<float, 32, 128, true, true, false, 4>"}
    results = tl.build({"head": open("internal/gpu/cholblocked/blocked.cu").read(), "new": ...}, kernels)
    fns = tl.functions(results, kernels)                 # {(variant, key): cupy function}
    c = tl.Case(4096, 2, "U")
    times = tl.interleaved(c, fns, ["head", "new"], ("U", 4), reps=7)  # {variant: [µs]}

Compiling goes through session 20's res.py (NVRTC as the engine runs it, registers and stack frames printed), so
it also runs here with scripts/local-cuda's NVRTC (set NVRTC, CUOBJDUMP and LD_LIBRARY_PATH to its directory).
Kernels are launched as PotrfTiled launches them: the whole matrix, 128 threads, the split kernels with tiled.go's
dynamic shared memory, a grid of twice the multiprocessors for the kernels built for one block a multiprocessor
and four times for those built for four (tiled.go's DefaultTiledBlocks).
"""
import os
import sys
import time

sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")


def build(sources, kernels):
    """Compiles every variant in sources ({name: blocked.cu text}) for the name expressions kernels' values;
    prints their resources and returns res.compile_all's results."""
    names = f"{os.environ.get('CUBINS', '/tmp')}/tiledlab-names.txt"
    open(names, "w").write("\n".join(kernels.values()) + "\n")
    os.environ["NAMES"] = names
    import res
    os.environ.setdefault("JOBS", str(len(sources)))
    t0 = time.time()
    results = res.compile_all(sources)
    res.report(results)
    print(f"compiled in {time.time() - t0:.0f}s", flush=True)
    return results


def split_shared_bytes(blocks_per_sm):
    """tiled.go's splitSharedBytes: split_rows × split_stages tiles of 32 × 36 floats."""
    return (3 if blocks_per_sm == 4 else 2) * 3 * 32 * 36 * 4


def functions(results, kernels):
    """{(variant, key): cupy function} for kernels ({key: expression}; key[-1] is the blocks a multiprocessor),
    each allowed the split kernels' dynamic shared memory."""
    import cupy as cp
    fns = {}
    for name, path, info, low, msg in results:
        if path is None:
            continue
        mod = cp.RawModule(path=path)
        by = {v: k for k, v in low.items()}
        for key, expr in kernels.items():
            fns[(name, key)] = mod.get_function(by[expr])
            fns[(name, key)].max_dynamic_shared_size_bytes = split_shared_bytes(key[-1])
    return fns


def divmagic(d):
    return (1 << 62) // d + 1


class Case:
    """count copies of one float32 SPD matrix of order n (GGᵀ/n + I, G standard normal), column-major, with
    chol_tiled's workspace: tickets and flags (room for the prefix tasks' flags) and X (room for their sums)."""

    def __init__(self, n, count, uplo, seed=7):
        import cupy as cp
        import numpy as np
        self.cp, self.np, self.n, self.count, self.uplo = cp, np, n, count, uplo
        g = cp.random.default_rng(seed).standard_normal((n, n), dtype=cp.float64)
        self.A = (g @ g.T) / n + cp.eye(n)
        self.A0 = cp.tile(self.A.astype(np.float32).ravel(order="F"), count)
        self.a = cp.empty_like(self.A0)
        nt = (n + 31) // 32
        self.tiles = nt * (nt + 1) // 2 * count
        self.tickets = cp.zeros(1 + 2 * self.tiles, cp.int32)
        self.x = cp.zeros(3 * count * nt * 1024, np.float32)
        self.info = cp.zeros(count, cp.int32)

    def args(self):
        n, np = self.n, self.np
        return (self.a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(self.count), self.info, self.tickets, self.x,
                np.int32(0), np.int32(n), np.uint64(0), np.int64(0), np.int64(0), np.uint64(0), np.uint64(0), np.int64(0),
                np.int64(0), np.uint64(divmagic(self.count)))

    def reset(self):
        self.a[...] = self.A0
        self.tickets.fill(0)
        self.info.fill(0)

    def check(self):
        """(the largest info, the worst ‖LLᵀ − A‖₁ / (‖A‖₁·n·eps) of the first and last matrix)."""
        cp, n, np = self.cp, self.n, self.np
        worst = 0.0
        for m in {0, self.count - 1}:
            L = self.a[m * n * n:(m + 1) * n * n].reshape((n, n), order="F").astype(cp.float64)
            L = cp.triu(L).T if self.uplo == "U" else cp.tril(L)
            r = cp.abs(L @ L.T - self.A).sum(axis=0).max() / cp.abs(self.A).sum(axis=0).max()
            worst = max(worst, float(r) / (n * np.finfo(np.float32).eps))
        return int(self.info.get().max()), worst


_flush = None


def interleaved(case, fns, arms, key, reps=7, after=None):
    """Times fns[(arm, key)] on case for every arm, the arms interleaved in each of reps + 1 repetitions (the first
    not counted), L2 evicted before each launch, CUDA events around the launch alone. after(arm), if given, runs
    after each arm's last launch (to check or keep its result). Returns {arm: [µs]}."""
    import cupy as cp
    global _flush
    if _flush is None:
        _flush = cp.empty(256 << 20, cp.uint8)
    mb = key[-1]
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    blocks = min((2 if mb == 1 else 4) * sms, case.tiles)
    ts = {a: [] for a in arms}
    for r in range(reps + 1):
        for a in arms:
            _flush.fill(r)
            case.reset()
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            fns[(a, key)]((blocks,), (128,), case.args(), shared_mem=split_shared_bytes(mb))
            e1.record()
            e1.synchronize()
            if r > 0:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps and after is not None:
                after(a)
    return ts
