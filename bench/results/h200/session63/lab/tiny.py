# Lab: is the suite's n32 b4096 (native:tiny, float32 Upper through the tile, 19.0 µs on the H200) two waves?
# potrf_reg<float, 32, 32, true, false> takes 80 registers under NVRTC 13 (this lab prints them): six blocks of 128
# threads a multiprocessor, 792 blocks at once on 132 multiprocessors, and 4,096 matrices are 1,024 blocks. Asked
# for seven or eight blocks (potrf_reg_min, MINB) ptxas fits 72 or 64 registers with a stack frame (40 and 8 B on
# the development machine's NVRTC 13). Times each against the tree's kernel at the batches where the waves change
# (3,168 = one wave of six blocks, 3,696 of seven, 4,096 the suite's, 4,224 of eight) and at 65,536; Lower too.
# Every result checked against numpy's Cholesky (residual and info); the failing batch must match the tree's bits.
#
# Usage, from the repository root on the GPU machine: python3 bench/results/h200/session63/lab/tiny.py
# Env: COUNTS ("1024,3168,3696,4096,4224,65536"), REPS (15), COMPILE_ONLY=1 (resources only).
import ctypes, os, re, subprocess, sys

import numpy as np

CUDA = "/usr/local/cuda"
NVRTC = os.environ.get("NVRTC", f"{CUDA}/lib64/libnvrtc.so")
CUOBJDUMP = os.environ.get("CUOBJDUMP", f"{CUDA}/bin/cuobjdump")
TREE = open("internal/gpu/potrf/potrf.cu").read()


def remat(src):
    """potrf_reg_body with the matrix's place (m, active, the store address) found again after the loop from the
    special registers, read by asm volatile so that the compiler cannot keep the first reads live through it."""
    start = src.index("    if constexpr (UPPER) {\n        // Row lane of L is column lane of U")
    end = src.index("template <typename T, int N, int NC, bool UPPER, bool VEC>\n__global__ void potrf_reg(")
    tail = src[start:end]
    for old, new in (("out[", "out2["), ("active &&", "active2 &&"), ("info[m]", "info[m2]"),
                     ("mine", "(active2 && lane < n)"), ("m * stride", "m2 * stride")):
        tail = tail.replace(old, new)
    fresh = """    unsigned tid2, cta2;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid2));
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(cta2));
    const long long m2 = (long long)cta2 * (kThreads / N) + tid2 / N;
    const bool active2 = m2 < count;
    T* const out2 = a + opaque(m2 * stride + lane);
"""
    src = src[:start] + fresh + tail + src[end:]
    return src.replace("potrf_reg_min(", "potrf_reg_min_r(").replace("potrf_reg(", "potrf_reg_r(").replace(
        "potrf_reg_body", "potrf_reg_body_r")


# The remat copy's body and kernels (renamed potrf_reg_r, potrf_reg_min_r) follow the tree's in one program.
SRC = (open("internal/gpu/scalar/scalar.cuh").read() + '\n#line 1 "potrf.cu"\n' + TREE + "\n" +
       "// N: lanes per matrix" + remat(TREE).split("// N: lanes per matrix", 1)[1])
ARMS = {  # arm: (name expression, uplo)
    "U": ("potrf_reg<float, 32, 32, true, false>", "U"),
    "U7": ("potrf_reg_min<float, 32, 32, true, false, 7>", "U"),
    "U8": ("potrf_reg_min<float, 32, 32, true, false, 8>", "U"),
    "L6": ("potrf_reg_min<float, 32, 32, false, false, 6>", "L"),
    "L8": ("potrf_reg_min<float, 32, 32, false, false, 8>", "L"),
    "Ur": ("potrf_reg_r<float, 32, 32, true, false>", "U"),
    "U8r": ("potrf_reg_min_r<float, 32, 32, true, false, 8>", "U"),
    "L8r": ("potrf_reg_min_r<float, 32, 32, false, false, 8>", "L"),
}


def compile_all():
    nv = ctypes.CDLL(NVRTC)
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), SRC.encode(), b"potrf.cu", 0, None, None)
    for e, _ in ARMS.values():
        nv.nvrtcAddNameExpression(prog, e.encode())
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    if rc:
        nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetProgramLog(prog, log)
        sys.exit(log.value.decode()[-4000:])
    nv.nvrtcGetCUBINSize(prog, ctypes.byref(size))
    cubin = ctypes.create_string_buffer(size.value)
    nv.nvrtcGetCUBIN(prog, cubin)
    path = "/tmp/tinylab.cubin"
    open(path, "wb").write(cubin.raw)
    low = {}
    for e, _ in ARMS.values():
        p = ctypes.c_char_p()
        nv.nvrtcGetLoweredName(prog, e.encode(), ctypes.byref(p))
        low[e] = p.value.decode()
    res = subprocess.run([CUOBJDUMP, "-res-usage", path], capture_output=True, text=True).stdout
    back = {v: k for k, v in low.items()}
    fn = None
    for line in res.splitlines():
        m = re.search(r"Function (\S+):", line)
        if m:
            fn = back.get(m.group(1))
            continue
        m = re.search(r"REG:(\d+).*STACK:(\d+)", line)
        if m and fn:
            print(f"{fn}: {m.group(1)} registers, stack {m.group(2)} B", flush=True)
    return path, low


path, low = compile_all()
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp

mod = cp.RawModule(path=path)
fns = {arm: mod.get_function(low[e]) for arm, (e, _) in ARMS.items()}
for arm, f in fns.items():
    print(f"{arm}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
N, NC, T = 32, 32, 128
SMEM = T // 32 * NC * (NC + 1) * 4  # potrf.go's upperTileBytes


def batch(count, seed=1):
    """count SPD float32 matrices (symmetric, so either triangle holds A), column-major, lda = n."""
    rs = np.random.RandomState(seed)
    y = rs.standard_normal((count, N, N)).astype(np.float32)
    a = np.matmul(y.transpose(0, 2, 1), y) / N + 0.5 * np.eye(N, dtype=np.float32)
    return a.astype(np.float32)


def launch(arm, a, info, count):
    f = fns[arm]
    args = (a, np.int64(N), np.int64(N * N), np.int32(N), np.int32(count), info)
    return lambda: f(((count + 3) // 4,), (T,), args, shared_mem=SMEM if ARMS[arm][1] == "U" else 0)


def lower_of(out, uplo):
    """L from the kernel's output: memory[m, j, i] is A(i, j) (column-major)."""
    if uplo == "L":
        return np.tril(out.transpose(0, 2, 1))
    return np.tril(out)  # U(i, j) = memory[m, j, i], i ≤ j: row-major lower part is Uᵀ = L


def check(arm, a0, count):
    d = cp.asarray(a0)
    info = cp.zeros(count, np.int32)
    launch(arm, d, info, count)()
    cp.cuda.Device().synchronize()
    l = lower_of(cp.asnumpy(d).astype(np.float64), ARMS[arm][1])
    a64 = a0.astype(np.float64)
    r = np.abs(np.matmul(l, l.transpose(0, 2, 1)) - a64).sum(axis=1).max(axis=1) / np.abs(a64).sum(axis=1).max(axis=1)
    worst = float(r.max() / (N * 2.0 ** -24))
    ok = worst < 20 and not cp.asnumpy(info).any()
    return ok, worst, cp.asnumpy(d)


flush = cp.empty(256 << 20, dtype=cp.uint8)


def timed(fs, reps):
    ts = {k: [] for k in fs}
    for r in range(reps):
        for k, f in fs.items():
            flush.fill(r & 255)
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            f()
            e.record()
            e.synchronize()
            ts[k].append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return {k: float(np.median(v[2:])) for k, v in ts.items()}


reps = int(os.environ.get("REPS", "15"))
bad = 0
print("µs, the median of", reps - 2, "interleaved repetitions, L2 flushed; residual in n·eps (float32 bound 20)")
print(f"{'count':>7} " + " ".join(f"{k:>8}" for k in ARMS) + "   worst residuals")
for count in [int(c) for c in os.environ.get("COUNTS", "1024,3168,3696,4096,4224,65536").split(",")]:
    a0 = batch(count)
    res = {}
    for arm in ARMS:
        ok, w, _ = check(arm, a0, count)
        res[arm] = w
        bad += not ok
    bufs = {arm: (cp.asarray(a0), cp.zeros(count, np.int32)) for arm in ARMS}
    t = timed({arm: launch(arm, *bufs[arm], count) for arm in ARMS}, reps)
    print(f"{count:>7} " + " ".join(f"{t[k]:8.2f}" for k in ARMS) + "   " +
          ", ".join(f"{k} {res[k]:.3f}" for k in ARMS), flush=True)
# A failing batch: matrix 1 indefinite at column 20 (info 20), matrix 2 NaN at (5, 5) (info 5): every arm's bits as its
# triangle's reference arm (U, L6), infos as LAPACK's.
a0 = batch(64, seed=3)
a0[1, 19, 19] = -1.0
a0[2, 4, 4] = np.nan
outs = {}
for arm in ARMS:
    d, info = cp.asarray(a0), cp.zeros(64, np.int32)
    launch(arm, d, info, 64)()
    outs[arm] = (cp.asnumpy(d), cp.asnumpy(info))
for arm, (uplo) in ((a, ARMS[a][1]) for a in ARMS):
    ref = outs["U" if uplo == "U" else "L6"]
    same = np.array_equal(outs[arm][0], ref[0], equal_nan=True) and np.array_equal(outs[arm][1], ref[1])
    want = outs[arm][1][1] == 20 and outs[arm][1][2] == 5 and not outs[arm][1][[0] + list(range(3, 64))].any()
    print(f"failing batch {arm}: info[1..2] {outs[arm][1][1:3].tolist()}, bits as its reference: {same}, infos: {want}")
    bad += not (same and want)
print("every result checked" if bad == 0 else f"{bad} FAILED")
sys.exit(1 if bad else 0)
