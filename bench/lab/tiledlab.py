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


def build(sources, kernels, module=()):
    """Compiles every variant in sources ({name: blocked.cu text}) for the name expressions kernels' values, and
    module's in the same program; prints their resources and returns res.compile_all's results. NVRTC's code for a
    kernel depends on what else the program holds (kernels sharing inlined templates: session 60 saw a kernel at 0 B
    of stack alone and 16 B beside another), so give module the names of the library's module of the kernels timed
    (cholblocked's kernelNames(dt, uplo)) where resources matter."""
    names = list(dict.fromkeys([*kernels.values(), *module]))
    path = f"{os.environ.get('CUBINS', '/tmp')}/tiledlab-names.txt"
    open(path, "w").write("\n".join(names) + "\n")
    os.environ["NAMES"] = path
    import res
    # res reads $NAMES and $CUBINS once, at its import: a lab's second build would compile the first's names into
    # the first's cubins.
    res.NAMES, res.OUTDIR = names, os.environ.get("CUBINS", "/tmp")
    os.environ.setdefault("JOBS", str(len(sources)))
    t0 = time.time()
    results = res.compile_all(sources)
    res.report(results)
    print(f"compiled in {time.time() - t0:.0f}s", flush=True)
    return results


def split_shared_bytes(blocks_per_sm):
    """tiled.go's splitSharedBytes: split_rows × split_stages tiles of 32 × 36 floats (three rows in the kernels
    with row pairs: three and four blocks a multiprocessor)."""
    return (3 if blocks_per_sm >= 3 else 2) * 3 * 32 * 36 * 4


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
    return interleaved_kernels(case, {a: (fns[(a, key)], key[-1]) for a in arms}, reps=reps, after=after)


def interleaved_kernels(case, kernels, reps=7, after=None):
    """interleaved for arms that run different kernels: kernels is {arm: (function, blocks a multiprocessor it is
    built for)}, each launched as PotrfTiled launches it (that many blocks a multiprocessor, two for one), or
    {arm: (function, blocks, dynamic shared bytes)} for a lab's own split buffers."""
    import cupy as cp
    global _flush
    if _flush is None:
        _flush = cp.empty(256 << 20, cp.uint8)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    ts = {a: [] for a in kernels}
    for r in range(reps + 1):
        for a, (fn, mb, *shared) in kernels.items():
            _flush.fill(r)
            case.reset()
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            fn((min(max(mb, 2) * sms, case.tiles),), (128,), case.args(), shared_mem=shared[0] if shared else split_shared_bytes(mb))
            e1.record()
            e1.synchronize()
            if r > 0:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps and after is not None:
                after(a)
    return ts


def edit(s, old, new):
    """s with its one occurrence of old replaced by new (a lab's edit of blocked.cu; fails unless old occurs once)."""
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)


def one_block_split(uplo):
    """The kernels argument for the one-block 3xTF32 whole-matrix kernel, the one the suite's chains run."""
    return split_kernel(uplo, 1)


def split_kernel(uplo, blocks):
    """The kernels argument for the 3xTF32 whole-matrix kernel built for blocks (1, 3 or 4) a multiprocessor: the
    one-block one runs the suite's chains, the four-block one its batched mid sizes (occ=4), the three-block one
    sits between them (occ=3)."""
    return {(uplo, blocks): f"chol_tiled<float, 32, 128, {'true' if uplo == 'U' else 'false'}, true, false, {blocks}>"}


def compare(fns, arms, key, specs, reps=7, prepare=None, after_case=None):
    """Times arms on each case of specs ("NxCOUNT", SPD), interleaved, and checks every result: info 0, residual
    under 20 n·eps, and factors equal to arms[0]'s bit for bit. prepare(case), if given, runs on each new case (to
    size its workspace); after_case(spec) after its timings. Prints a row a case; returns the number of bad results."""
    return compare_kernels({a: (fns[(a, key)], key[-1]) for a in arms}, key[0], specs, reps=reps, prepare=prepare,
                           after_case=after_case)


def compare_kernels(kernels, uplo, specs, reps=7, prepare=None, after_case=None, bits_exempt=()):
    """compare for arms that run different kernels (interleaved_kernels' {arm: (function, blocks[, shared])}), the
    first the reference; arms in bits_exempt (another order of sums) are held to info and residual only."""
    import numpy as np
    arms = list(kernels)
    bad = 0
    print(f"µs, the median of the interleaved repetitions; every result checked (info 0, residual under 20 n·eps, "
          f"factors as {arms[0]}'s bit for bit)")
    print(f"{'case':>10} " + " ".join(f"{a:>12}" for a in arms))
    for spec in specs:
        n, count = map(int, spec.split("x"))
        c = Case(n, count, uplo)
        if prepare is not None:
            prepare(c)
        checks, keep = {}, {}
        ts = interleaved_kernels(c, kernels, reps=reps,
                                 after=lambda arm: (checks.__setitem__(arm, c.check()), keep.__setitem__(arm, c.a.get())))
        print(f"{spec:>10} " + " ".join(f"{np.median(ts[a]):12.1f}" for a in arms), flush=True)
        for a in arms:
            info, resid = checks[a]
            same = a in bits_exempt or np.array_equal(keep[arms[0]].view(np.uint32), keep[a].view(np.uint32))
            if info != 0 or resid >= 20 or not same:
                bad += 1
                print(f"{spec} {a}: BAD (info {info}, residual {resid:.3f} n·eps, bits {'equal' if same else 'DIFFER'})")
        if after_case is not None:
            after_case(spec)
    return bad


def compare_failing(fns, arms, key, fails, n=512, count=4, runs=1, prepare=None):
    """count matrices of order n, matrix m made to fail at 1-based column col (A(col−1, col−1) = −100) for each
    (m, col) in fails: every arm must give arms[0]'s info and matrices bit for bit, in each of runs launches.
    Prints a line a run and arm; returns the number of differences."""
    return compare_failing_kernels({a: (fns[(a, key)], key[-1]) for a in arms}, key[0], fails, n=n, count=count,
                                   runs=runs, prepare=prepare)


def compare_failing_kernels(kernels, uplo, fails, n=512, count=4, runs=1, prepare=None, bits_exempt=()):
    """compare_failing for compare_kernels' arms; those in bits_exempt must give the first arm's info only."""
    import numpy as np
    arms = list(kernels)
    c = Case(n, count, uplo)
    if prepare is not None:
        prepare(c)
    for m, col in fails:
        c.A0[m * n * n + (col - 1) * (n + 1)] = -100
    bad, out = 0, {}
    for r in range(runs):
        interleaved_kernels(c, kernels, reps=1, after=lambda arm: out.__setitem__(arm, (c.info.get().copy(), c.a.get().copy())))
        for a in arms[1:]:
            same = np.array_equal(out[arms[0]][0], out[a][0]) and (
                a in bits_exempt or np.array_equal(out[arms[0]][1].view(np.uint32), out[a][1].view(np.uint32)))
            bad += not same
            print(f"failing matrices, run {r}, {a}: info {out[a][0].tolist()} ({arms[0]} {out[arms[0]][0].tolist()}), "
                  f"{('info equal' if a in bits_exempt else 'bit-equal') if same else 'DIFFERENT'}")
    return bad


def roomy(c, walk=False):
    """Gives case c the workspace labs need beyond PotrfTiled's: X five times over (for slots after X and the prefix
    tasks' sums), and with walk room for a flag a (matrix, step) after the prefix tasks' flags."""
    import cupy as cp
    import numpy as np
    nt = (c.n + 31) // 32
    c.x = cp.zeros(5 * c.count * nt * 1024 + 4096, np.float32)
    if walk:
        c.tickets = cp.zeros(1 + 3 * c.tiles + c.count * nt + 64, cp.int32)


def run_lab(variants, uplo, specs, fails=((1, 71),), runs=1, prepare=roomy, keep=(), after_case=None, blocks=1):
    """A lab's whole run on the 3xTF32 kernel for blocks (1, 3 or 4) a multiprocessor: builds variants (the first is
    the reference), exits after the resources with COMPILE_ONLY=1, then compare on specs (REPS repetitions, 7 by
    default) and compare_failing on four matrices of order 512 with fails, runs times. keep names variants whose
    modules after_case(spec, modules) reads (globals a variant writes). Exits 1 on any bad result."""
    kernels = split_kernel(uplo, blocks)
    key = (uplo, blocks)
    results = build(variants, kernels)
    if os.environ.get("COMPILE_ONLY") == "1":
        sys.exit(0)
    import cupy as cp
    fns = functions(results, kernels)
    mods = {}
    for name, path, _, low, _ in results:
        if name in keep and path is not None:
            mods[name] = cp.RawModule(path=path)
            f = mods[name].get_function({v: k for k, v in low.items()}[kernels[key]])
            f.max_dynamic_shared_size_bytes = split_shared_bytes(blocks)
            fns[(name, key)] = f
    arms = [v for v in variants if (v, key) in fns]
    bad = compare(fns, arms, key, specs, reps=int(os.environ.get("REPS", "7")), prepare=prepare,
                  after_case=None if after_case is None else lambda spec: after_case(spec, mods))
    bad += compare_failing(fns, arms, key, fails, runs=runs, prepare=prepare)
    print("every result checked" if bad == 0 else f"{bad} BAD")
    sys.exit(1 if bad else 0)
