# Lab: potrf_reg (internal/gpu/potrf/potrf.cu, the register tier: native:tiny) with its column loops stepped
# through an opaque pointer (p = opaque(p + lda)) and each lane's stored columns bounded by one precomputed end,
# against HEAD's (head-potrf.cu.xz, beside this file), where each column's address was a 64-bit c·lda and its store
# predicate five tests (about 20 instructions a column: float Upper n = 32 2848 instructions → 2128 under NVRTC 13).
# Each source is compiled as the engine compiles it, a program per type and column bucket with the bucket's names
# (potrf.go's kernelNames), and launched as potrf.go launches it (128 threads, Upper's tile in dynamic shared
# memory, Upper in place where float32 columns of at most 16 are 16-byte aligned). Per case: both sources factor
# the same batch (SPD, and a batch with failing, NaN, infinite and subnormal-pivot matrices) and must agree bit for
# bit, info too; the residual is checked against the float32/float64 bound; then the two are timed interleaved
# (L2 flushed, CUDA events, the median of REPS − 2).
#
# Usage, from the repository root on the GPU machine: python3 bench/results/h200/session63/lab/reg.py
# Env: CASES (dtype/uplo/n/count, comma-separated; default below), REPS (15), COMPILE_ONLY=1 (resources only).
import ctypes, lzma, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

CUDA = "/usr/local/cuda"
NVRTC = os.environ.get("NVRTC", f"{CUDA}/lib64/libnvrtc.so")
CUOBJDUMP = os.environ.get("CUOBJDUMP", f"{CUDA}/bin/cuobjdump")
HERE = os.path.dirname(os.path.abspath(__file__))
PRE = open("internal/gpu/scalar/scalar.cuh").read() + '\n#line 1 "potrf.cu"\n'
SOURCES = {"head": lzma.open(f"{HERE}/head-potrf.cu.xz", "rt", encoding="utf-8").read(),
           "new": open("internal/gpu/potrf/potrf.cu").read()}
CNAME = {"float32": "float", "float64": "double", "complex64": "cfloat", "complex128": "cdouble"}
NP = {"float32": np.float32, "float64": np.float64, "complex64": np.complex64, "complex128": np.complex128}
EPS = {"float32": 2.0 ** -24, "float64": 2.0 ** -53, "complex64": 2.0 ** -24, "complex128": 2.0 ** -53}
DEFAULT = ("float32/U/32/4096,float32/L/32/4096,float32/U/32/65536,float32/L/32/65536,float32/U/8/65536,"
           "float32/L/8/65536,float32/U/16/65536,float32/L/16/65536,float32/U/20/65536,float32/U/24/65536,"
           "float32/L/24/65536,float32/U/4/262144,float64/U/32/16384,float64/L/32/16384,float64/U/20/16384,"
           "float64/U/16/65536,float64/L/16/65536,complex64/U/32/16384,complex128/U/32/16384,complex128/U/8/65536")


def shape(n):
    cols = max(4, (n + 3) // 4 * 4)
    lanes = 4
    while lanes < cols:
        lanes *= 2
    return lanes, cols


def names(dt, cols):
    """potrf.go's kernelNames: Lower, Upper through the tile, Upper in place (float32 up to 16 columns)."""
    lanes, _ = shape(cols)
    t = CNAME[dt]

    def nm(upper, vec):
        u, v = str(upper).lower(), str(vec).lower()
        if dt == "float32" and not upper and cols in (8, 32):
            return f"potrf_reg_min<{t}, {lanes}, {cols}, {u}, {v}, 6>"
        return f"potrf_reg<{t}, {lanes}, {cols}, {u}, {v}>"

    out = [nm(False, False), nm(True, False)]
    if dt == "float32" and cols <= 16:
        out.append(nm(True, True))
    return out


def compile_module(job):
    tag, dt, cols = job
    nv = ctypes.CDLL(NVRTC)
    ns = names(dt, cols)
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (PRE + SOURCES[tag]).encode(), b"potrf.cu", 0, None, None)
    for e in ns:
        nv.nvrtcAddNameExpression(prog, e.encode())
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    if rc:
        nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetProgramLog(prog, log)
        raise RuntimeError(log.value.decode()[-3000:])
    nv.nvrtcGetCUBINSize(prog, ctypes.byref(size))
    cubin = ctypes.create_string_buffer(size.value)
    nv.nvrtcGetCUBIN(prog, cubin)
    path = f"/tmp/reglab-{tag}-{dt}-{cols}.cubin"
    open(path, "wb").write(cubin.raw)
    low = {}
    for e in ns:
        p = ctypes.c_char_p()
        nv.nvrtcGetLoweredName(prog, e.encode(), ctypes.byref(p))
        low[e] = p.value.decode()
    sass = subprocess.run([CUOBJDUMP, "-sass", path], capture_output=True, text=True).stdout
    count, fn = {}, None
    for line in sass.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            fn = m.group(1)
            count[fn] = 0
        elif fn and re.match(r"\s+/\*[0-9a-f]{4,}\*/", line):
            count[fn] += 1
    return job, path, low, {e: count.get(l, 0) for e, l in low.items()}


cases = []
for c in os.environ.get("CASES", DEFAULT).split(","):
    dt, uplo, n, count = c.split("/")
    cases.append((dt, uplo, int(n), int(count)))
jobs = sorted({(tag, dt, shape(n)[1]) for tag in SOURCES for dt, _, n, _ in cases})
with ThreadPoolExecutor(8) as ex:
    built = {job: (path, low, cnt) for job, path, low, cnt in ex.map(compile_module, jobs)}
if os.environ.get("COMPILE_ONLY") == "1":
    for job, (path, low, cnt) in sorted(built.items()):
        for e in low:
            print(f"{job[0]}: {e}: {cnt[e]} instructions")
    sys.exit(0)

import cupy as cp

fns = {}
for (tag, dt, cols), (path, low, cnt) in sorted(built.items()):
    mod = cp.RawModule(path=path)
    for e, l in low.items():
        f = fns[(tag, e)] = mod.get_function(l)
        print(f"{tag}: {e}: {f.num_regs} registers, local {f.local_size_bytes} B, {cnt[e]} instructions", flush=True)


def kernel_for(dt, uplo, n):
    ns = names(dt, shape(n)[1])
    if uplo == "L":
        return ns[0], 0
    lanes, cols = shape(n)
    if dt == "float32" and cols <= 16 and n % 4 == 0:  # upperInPlace: aligned columns (lda = n)
        return ns[2], 0
    return ns[1], 128 // lanes * cols * (cols + 1) * np.dtype(NP[dt]).itemsize  # upperTileBytes


def batch(dt, n, count, seed, spoil=False):
    rs = np.random.RandomState(seed)
    y = rs.standard_normal((count, n, n))
    if dt.startswith("complex"):
        y = y + 1j * rs.standard_normal((count, n, n))
    a = np.matmul(np.conj(y.transpose(0, 2, 1)), y) / n + 0.5 * np.eye(n)[None]
    if spoil and count >= 8 and n >= 3:
        a[1, n - 1, n - 1] = -1.0           # fails at the last pivot
        a[2, 1, 1] = np.nan                 # NaN pivot
        a[3, n // 2, 0] = a[3, 0, n // 2] = np.nan  # NaN off the diagonal
        a[4, 0, 0] = np.inf                 # infinite pivot
        a[5, n // 2, n // 2] = 1e-40 if dt in ("float32", "complex64") else 1e-310  # subnormal pivot
        a[5, n // 2, :n // 2] = a[5, :n // 2, n // 2] = 0.0
        a[6, 0, 0] = 0.0
    # memory[m, j, i] is A(i, j): column-major with lda = n
    return np.ascontiguousarray(a.transpose(0, 2, 1)).astype(NP[dt])


def run(tag, name, smem, dt, n, count, host):
    d = cp.asarray(host)
    info = cp.full(count, -7, np.int32)
    f = fns[(tag, name)]
    if smem > 48 << 10:
        f.max_dynamic_shared_size_bytes = smem
    lanes, _ = shape(n)
    args = (d, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info)
    return (lambda: f(((count + 128 // lanes - 1) // (128 // lanes),), (128,), args, shared_mem=smem)), d, info


def residual(dt, uplo, out, a, n):
    o = out.astype(np.complex128 if dt.startswith("complex") else np.float64)
    l = np.tril(o.transpose(0, 2, 1)) if uplo == "L" else np.conj(np.tril(o))
    aa = a.transpose(0, 2, 1).astype(o.dtype)  # A(i, j)
    r = np.abs(np.matmul(l, np.conj(l.transpose(0, 2, 1))) - aa).sum(axis=1).max(axis=1)
    return float((r / np.abs(aa).sum(axis=1).max(axis=1)).max() / (n * EPS[dt]))


flush = cp.empty(256 << 20, dtype=cp.uint8)
reps = int(os.environ.get("REPS", "15"))
bad = 0
print(f"µs, the median of {reps - 2} interleaved repetitions, L2 flushed; residual in n·eps (bound 20); bits: new "
      "against head on the SPD batch and on the failing one")
print(f"{'case':>24} {'kernel':>48} {'head':>9} {'new':>9} {'new/head':>8}  residual  bits")
for dt, uplo, n, count in cases:
    name, smem = kernel_for(dt, uplo, n)
    same = True
    for spoil in (False, True):
        host = batch(dt, n, min(count, 4096) if spoil else count, seed=n + 7 * spoil, spoil=spoil)
        outs = {}
        for tag in SOURCES:
            f, d, info = run(tag, name, smem, dt, n, host.shape[0], host)
            f()
            outs[tag] = (cp.asnumpy(d), cp.asnumpy(info))
        same &= np.array_equal(outs["head"][0], outs["new"][0], equal_nan=True) and np.array_equal(
            outs["head"][1], outs["new"][1])
        if not spoil:
            res = residual(dt, uplo, outs["new"][0], host, n)
            ok_info = not outs["new"][1].any()
        else:
            # the negative, NaN and zero pivots and the NaN below the diagonal fail; the others, the infinite and
            # the subnormal pivot among them, are held to head's bits only
            ok_info = ok_info and bool((outs["new"][1][[1, 2, 3, 6]] > 0).all())
    host = batch(dt, n, count, seed=n)
    arms = {tag: run(tag, name, smem, dt, n, count, host)[0] for tag in SOURCES}
    ts = {tag: [] for tag in arms}
    for r in range(reps):
        for tag in (arms if r % 2 == 0 else reversed(list(arms))):
            flush.fill(r & 255)
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            arms[tag]()
            e.record()
            e.synchronize()
            ts[tag].append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    t = {tag: float(np.median(v[2:])) for tag, v in ts.items()}
    ok = same and res < 20 and ok_info
    bad += not ok
    print(f"{dt + '/' + uplo + '/n=' + str(n) + '/' + str(count):>24} {name:>48} {t['head']:9.2f} {t['new']:9.2f} "
          f"{t['new'] / t['head']:8.3f}  {res:8.3f}  {'equal' if same else 'DIFFER'}{'' if ok_info else ' INFO?'}",
          flush=True)
print("every result checked" if bad == 0 else f"{bad} FAILED")
sys.exit(1 if bad else 0)
