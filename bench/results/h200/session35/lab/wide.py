# Session 35 lab: potrf_warp's wide tile (float32 Upper, 16-byte aligned columns) with wide_fill's loop rolled, at
# every bucket, against the same with the loop unrolled (session 34's form) and against the tile of NC + 1 columns.
# Sources are scalar.cuh + potrf.cu + warp.cu of the working tree, concatenated as the engine does (WarpSource):
#   T  potrf_warp<float, NC, true, false>: the tile of NC + 1 columns
#   R  potrf_warp<float, NC, true, true>: the wide tile as committed (wide_fill's loop rolled, the tile in static
#      shared memory)
#   C  R with wide_fill's loop rolled at NC = 40 only (the working tree in call 1, which ran this lab)
#   U  R with wide_fill's loop unrolled at every NC (session 34's form)
# Registers of every bucket; C's, R's and U's whole buffer and info bit for bit against T's on SPD, failing, NaN and
# subnormal-pivot matrices (aligned columns, gaps between them); time at 65,536 matrices, arms interleaved, L2
# flushed before each launch, the median of 10, against a device copy of the batch.
# LOCAL=1 compiles only (NVRTC at $NVRTC, cuobjdump at $CUOBJDUMP) and prints registers.
import ctypes, os, re, subprocess
H = os.path.dirname(os.path.abspath(__file__))
P = os.path.abspath(f"{H}/../../../../../internal/gpu")
TREE = (open(f"{P}/scalar/scalar.cuh").read() + '\n#line 1 "potrf.cu"\n' + open(f"{P}/potrf/potrf.cu").read()
        + '\n#line 1 "warp.cu"\n' + open(f"{P}/potrf/warp.cu").read())
ROLLED = "    // 638.8, 64 718.8 against 746.8.\n#pragma unroll 1\n"  # wide_fill's loop
assert TREE.count(ROLLED) == 1
SRC = {"C": TREE.replace(ROLLED, ROLLED.replace("unroll 1", "unroll(NC == 40 ? 1 : NC)")), "R": TREE,
       "U": TREE.replace(ROLLED, ROLLED.replace("unroll 1", "unroll"))}
NCS = [36, 40, 44, 48, 52, 56, 60, 64]
def names(tag):
    return [f"potrf_warp<float, {nc}, true, true>" for nc in NCS] + ([f"potrf_warp<float, {nc}, true, false>" for nc in NCS] if tag == "C" else [])

def build(tag):
    nv = ctypes.CDLL(os.environ.get("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so"))
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), SRC[tag].encode(), b"scalar.cuh", 0, None, None)
    for k in names(tag): nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    if nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o)):
        n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
        nv.nvrtcGetProgramLog(prog, log); print(tag, log.value.decode()[-3000:]); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab35-{tag}.cubin"; open(path, "wb").write(buf.raw)
    low = {}
    for k in names(tag):
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    return path, low

from concurrent.futures import ProcessPoolExecutor
with ProcessPoolExecutor(3) as ex:  # before CuPy touches the device
    BUILT = dict(zip(SRC, ex.map(build, SRC)))
if os.environ.get("LOCAL"):
    for t, (path, low) in BUILT.items():
        res = subprocess.run([os.environ["CUOBJDUMP"], "-res-usage", path], capture_output=True, text=True).stdout
        inv = {v: k for k, v in low.items()}; fn = None
        for line in res.splitlines():
            m = re.search(r"Function (\S+):", line)
            if m: fn = inv.get(m.group(1), m.group(1)); continue
            m = re.search(r"REG:(\d+).*STACK:(\d+).*LOCAL:(\d+)", line)
            if m and fn: print(t, fn, "regs", m.group(1), "stack", m.group(2), "local", m.group(3))
    raise SystemExit(0)

import cupy as cp, numpy as np
K = {}
for t, (path, low) in BUILT.items():
    m = cp.RawModule(path=path)
    for k in names(t):
        f = m.get_function(low[k]); key = ("T" if k.endswith("false>") else t, int(k.split(",")[1]))
        K[key] = f
        print(f"{key[0]} NC={key[1]}: {f.num_regs} regs, local {f.local_size_bytes} B, static shared {f.shared_size_bytes} B", flush=True)
flush = cp.empty(256 << 20, dtype=cp.uint8)

def spd(n, count, lda, seed=7):
    y = cp.random.RandomState(seed).standard_normal((count, n, n), dtype=cp.float32)
    s = (cp.matmul(y.transpose(0, 2, 1), y) / n + 0.01 * cp.eye(n, dtype=cp.float32)[None]).astype(cp.float32)
    a = cp.full((count, n, lda), 7.5, dtype=cp.float32)  # column-major: a[m, col, row]; rows n..lda-1 are gaps
    a[:, :, :n] = s
    return a

def run(tag, n, a0, lda, count):
    nc = (n + 3) // 4 * 4
    info = cp.zeros(count, cp.int32); a = a0.copy(); flush.fill(1)
    s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
    K[(tag, nc)](((count + 1) // 2,), (64,), (a, np.int64(lda), np.int64(a0.shape[1] * lda), np.int32(n), np.int32(count), info),
                 shared_mem=2 * nc * (nc + 1) * 4 if tag == "T" else 0)
    e.record(); e.synchronize()
    return cp.cuda.get_elapsed_time(s, e) * 1e3, a, info

for n in [37, 38, 39, 40, 36, 44, 61, 64]:
    lda = (n + 3) // 4 * 4 + 4; count = 333
    a0 = spd(n, count, lda)
    for m, k in [(1, 0), (2, 5), (3, 31), (4, 32), (5, n - 3), (6, n - 1), (7, n - 2)]:
        a0[m, k, k] = -1.0
    a0[8, 10, 20] = float("nan"); a0[8, 20, 10] = float("nan")
    a0[9, 3:, 3:] *= 1e-40
    _, aT, iT = run("T", n, a0, lda, count)
    out = []
    for t in ("C", "R", "U"):
        _, aX, iX = run(t, n, a0, lda, count)
        same = bool(cp.all(aX.view(cp.uint32) == aT.view(cp.uint32))) and bool(cp.all(iX == iT))
        out.append(f"{t} {'equal' if same else 'DIFFER'}")
    print(f"check n={n} lda={lda}: " + ", ".join(out) + f"; info[:10] {iT[:10].get().tolist()}", flush=True)

count = 65536
for n in [37, 40, 36, 44, 48, 52, 56, 60, 64]:
    lda = (n + 3) // 4 * 4  # aligned columns, as the wide kernels require (call 1 ran n = 37 with lda = 37)
    a0 = spd(n, count, lda)
    c = cp.empty_like(a0); cs = []
    for r in range(5):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); c[...] = a0; e.record(); e.synchronize()
        cs.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    cu = np.median(cs)
    tags = ["T", "C", "R", "U"]; ts = {t: [] for t in tags}; outs = {}
    for r in range(12):
        for t in (tags if r % 2 else tags[::-1]):
            us, a, info = run(t, n, a0, lda, count)
            if r >= 2: ts[t].append(us)
            outs[t] = (a, info)
    same = {t: bool(cp.all(outs[t][0].view(cp.uint32) == outs["T"][0].view(cp.uint32))) and int(outs[t][1].max()) == 0 for t in ("C", "R", "U")}
    print(f"time n={n} count={count} copy {cu:.1f} µs: " + "; ".join(f"{t} {np.median(v):.1f} ({100 * cu / np.median(v):.0f} %)" for t, v in ts.items()),
          "| bits vs T, info 0:", same, flush=True)
