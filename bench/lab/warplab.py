"""warplab: what the GPU machine's labs on potrf's warp tier share.

A lab is a python3 script run from the repository root on the GPU machine
(cupy and the CUDA toolkit are there, Go is not). It compiles variants of
internal/gpu/potrf/warp.cu with NVRTC, joined after its prelude as the
engine joins them, and compares their kernels' resources, SASS, bits and
times. Labs up to session 45's fourth call copied this scaffolding into
each script (bench/results/h200/sessionNN/lab/); new labs import it:

    import os, sys
    sys.path.insert(0, "bench/lab")
    import warplab as wl

    K = wl.build({"head": wl.read_xz("bench/results/h200/sessionNN/lab/head-warp.cu.xz"),
                  "new": wl.read("internal/gpu/potrf/warp.cu")},
                 {"head": ["posv_split<double, 48, false>"], "new": ["posv_split<double, 48, false>"]})
    a = wl.spd(48, 1024, seed=1)
    ...
    t = wl.timed(K.launch("new", "posv_split<double, 48, false>", a, 48, 48, 1024, info, b, nrhs))

Arguments follow the kernels' (warp.cu): potrf kernels take (a, lda,
stride, n, count, info), the solves (a, lda, stride, n, b, ldb, bstride,
nrhs, count, info); two warps a block.
"""
import ctypes
import lzma
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import cupy as cp
import numpy as np

CUDA = "/usr/local/cuda"
_nvrtc = ctypes.CDLL(f"{CUDA}/lib64/libnvrtc.so")
I, L = np.int32, np.int64


def read(path):
    return open(path, encoding="utf-8").read()


def prelude():
    """The sources compiled before warp.cu, with #line marks as the engine puts them."""
    return (read("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + read("internal/gpu/potrf/potrf.cu")
            + '\n#line 1 "sweeps.cu"\n' + read("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n')


def read_xz(path):
    """An xz copy of a source, as labs keep HEAD's beside them: the GPU
    machine's copy of the tree has no .git to ask."""
    return lzma.open(path, "rt", encoding="utf-8").read()


def _compile(tag, src, names):
    prog = ctypes.c_void_p()
    _nvrtc.nvrtcCreateProgram(ctypes.byref(prog), (prelude() + src).encode(), b"warp.cu", 0, None, None)
    for k in names:
        _nvrtc.nvrtcAddNameExpression(prog, k.encode())
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = _nvrtc.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    _nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    _nvrtc.nvrtcGetProgramLog(prog, log)
    if rc:
        raise RuntimeError(f"{tag}: NVRTC failed:\n{log.value.decode()[-6000:]}")
    _nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size))
    cubin = ctypes.create_string_buffer(size.value)
    _nvrtc.nvrtcGetCUBIN(prog, cubin)
    path = f"/tmp/warplab-{re.sub(r'[^A-Za-z0-9]+', '-', tag)}.cubin"
    open(path, "wb").write(cubin.raw)
    lowered = {}
    for k in names:
        p = ctypes.c_char_p()
        _nvrtc.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p))
        lowered[k] = p.value.decode()
    return path, lowered, sass(path)


def sass(cubin):
    """Each function's SASS lines without the /*0000*/ offsets and with runs of
    whitespace collapsed: cuobjdump pads to the listing's longest line, so
    uncollapsed listings of the same code can differ."""
    out = subprocess.run([f"{CUDA}/bin/cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
        elif cur:
            funcs[cur].append(" ".join(re.sub(r"/\*[0-9a-f]{4}\*/", "", line).split()))
    return funcs


class Kernels:
    """The kernels of each source, by (source tag, name expression)."""

    def __init__(self):
        self.fn, self.sass = {}, {}
        self.modules = []  # (source tag, cupy RawModule), for a lab's __device__ globals

    def same_sass(self, a, b, name):
        return self.sass[(a, name)] == self.sass[(b, name)]

    def launch(self, tag, name, a, lda, n, count, info, b=None, nrhs=0, ldb=None):
        """A callable that launches kernel name of source tag on count matrices (two a block)."""
        f = self.fn[(tag, name)]
        nc = int(name.split(",")[1])
        ldb = ldb or n
        tile = name.startswith("posv_warp") or (name.startswith("potrf_warp") and ", true," in name)
        pitch = (nc * (nc + 1) // 2 + 1) // 2 * 2  # warp.go's splitBytes, in doubles
        smem = 2 * pitch * 8 if "split" in name else (2 * nc * (nc + 1) * 8 if tile else 0)
        if name.startswith("potrf"):
            args = (a, L(lda), L(lda * n), I(n), I(count), info)
        else:
            args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs), I(count), info)
        if smem > 48 << 10:
            f.max_dynamic_shared_size_bytes = smem
        return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=smem)


def build(sources, names):
    """Compiles sources (tag: warp.cu's text) for names (tag: name
    expressions, or a list of lists to compile in parallel parts), loads
    them and prints each kernel's registers and local memory."""
    jobs = []
    for tag, src in sources.items():
        parts = names[tag]
        if parts and isinstance(parts[0], str):
            parts = [parts]
        jobs += [(f"{tag}-{i}", tag, src, part) for i, part in enumerate(parts) if part]
    with ThreadPoolExecutor(len(jobs)) as ex:
        done = list(ex.map(lambda j: (j[1], _compile(j[0], j[2], j[3])), jobs))
    k = Kernels()
    for tag, (path, lowered, funcs) in done:  # modules load in the main thread: the context is per thread
        m = cp.RawModule(path=path)
        k.modules.append((tag, m))
        for name, low in lowered.items():
            f = k.fn[(tag, name)] = m.get_function(low)
            k.sass[(tag, name)] = funcs.get(low)
            print(f"{tag}: {name}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
    return k


def spd(n, count, seed, lda=None):
    """count symmetric positive definite float64 matrices, lda ≥ n rows each, NaN in the padding."""
    lda = lda or n
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan)
    s[:, :, :n] = a
    return s


def spoil(a, n):
    """Makes some matrices of a batch fail or carry NaN, infinity and a tiny pivot (a needs 16 matrices, n ≥ 21)."""
    a[4, 7, 7] = -2.0
    a[6, 0, 0] = cp.nan
    a[9, n - 1, n - 1] = 1e-300
    a[11, n - 1, 3] = cp.nan
    a[13, n - 2, n - 2] = -1.0
    a[15, 20, 20] = cp.inf
    return a


def same(x, y):
    """Bit-for-bit equal arrays, NaN matching NaN."""
    return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())


_flush = None


def timed(f, reps=9, setup=None):
    """Median µs of f over reps − 2 runs (the first two dropped), L2 flushed before each, CUDA events;
    setup, untimed, before each flush (a kernel that works in place gets its input back)."""
    global _flush
    if _flush is None:
        _flush = cp.empty(256 << 20, dtype=cp.uint8)
    ts = []
    for r in range(reps):
        if setup is not None:
            setup()
        _flush.fill(r)
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        f()
        e.record()
        e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
