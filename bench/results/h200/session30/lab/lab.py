# Session 30 lab: two questions about the float64 solves, for the next change rather than this one.
#  1. potrs_warp for double at NC = 60 and 64: registers and local memory (posv_warp spills there, potrs_warp has no
#     factorization in its registers), and its time against potrs_cta, which served float64 Potrs above n = 56 before
#     this session (potrs_warp with the info argument it took this session, every info 0).
#  2. posv_warp<double, 48>: do half-warp chunks (half_chunk) for 8 and 4 right-hand sides beat warp_chunk's? The
#     variant is this source with warp_solve's tail patched here (as text), not a change in the repository.
# Sources as the engine concatenates them: scalar.cuh, potrf.cu, then cta.cu or warp.cu. Run from the repository root.
import cupy as cp, numpy as np, ctypes
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p).read()
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu")
warp = rd("internal/gpu/potrf/warp.cu")
old = "    if (c0 + 8 <= nrhs) warp_chunk<T, NC, 8>"
assert warp.count(old) == 1
half = warp.replace(old, """    if constexpr (NR <= 3) {
        R hinv[NR];
#pragma unroll
        for (int r = 0; r < NR; ++r) {
            const int row = lane % 16 + 16 * r;
            hinv[r] = row < n ? R(1) / re(tile[row * (NC + 1) + row]) : R(0);
        }
        if (c0 + 8 <= nrhs) half_chunk<T, NC, 4>(tile, n, lane, hinv, bm, ldb, c0, pub), c0 += 8;
        if (c0 + 4 <= nrhs) half_chunk<T, NC, 2>(tile, n, lane, hinv, bm, ldb, c0, pub), c0 += 4;
    }
""" + old)
SRC = {"cta": pre + '\n#line 1 "cta.cu"\n' + rd("internal/gpu/potrf/cta.cu"),
       "warp": pre + '\n#line 1 "warp.cu"\n' + warp, "half": pre + '\n#line 1 "warp.cu"\n' + half}
NAMES = {"cta": ["potrs_cta<double, 64, 16, 8, false>", "posv_cta<double, 64, 16, 8, false>"],
         "warp": [f"potrs_warp<double, {nc}, {u}>" for nc in (56, 60, 64) for u in ("false", "true")] +
                 ["posv_warp<double, 48, false, false>"],
         "half": ["posv_warp<double, 48, false, false>"]}
def build(tag):
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), SRC[tag].encode(), f"{tag}.cu".encode(), 0, None, None)
    for k in NAMES[tag]: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: print(log.value.decode()[-4000:]); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab30-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path); fn = {}
    for k in NAMES[tag]:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); fn[tag + ":" + k] = m.get_function(p.value.decode())
        print(f"{tag}: {k}: {fn[tag + ':' + k].num_regs} regs, local {fn[tag + ':' + k].local_size_bytes} B", flush=True)
    return fn
F = {}
for t in ("cta", "warp", "half"): F.update(build(t))
flush = cp.empty(256 << 20, dtype=cp.uint8)
def spd(n, count):
    y = cp.random.RandomState(n).standard_normal((count, n, n))
    return cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
def timed(launch, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); launch(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
CTA_SHM = 16 * (4 * 64 - 16 * 6) * 8
def launcher(key, a, b, n, nrhs, count, info):
    name = key.split(":", 1)[1]; nc = (n + 3) // 4 * 4
    if "warp" in name:
        shm = 2 * nc * (nc + 1) * 8
        if shm > 48 << 10: F[key].max_dynamic_shared_size_bytes = shm
        grid = ((count + 1) // 2,)
        tail = (np.int32(count), info)  # potrs_warp skips a matrix whose info is not 0 (all 0 here)
    else:
        shm, grid = CTA_SHM, (count,)
        tail = (info, np.int32(0)) if name.startswith("posv") else ()
    args = (a, np.int64(n), np.int64(n * n), np.int32(n), b, np.int64(n), np.int64(n * nrhs), np.int32(nrhs)) + tail
    return lambda: F[key](grid, (64,), args, shared_mem=shm)
def run(key, a0, f0, b0, n, nrhs, count):
    # posv gets A, potrs A's factor f0 (lower triangle, column-major: f0[m][c][r] = L(r, c)).
    a = (a0 if key.split(":", 1)[1].startswith("posv") else f0).copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
    src = a0 if key.split(":", 1)[1].startswith("posv") else f0
    k = launcher(key, a, b, n, nrhs, count, info)
    def go(): a[...] = src; b[...] = b0; k()
    return go, b
print("\n# double, Lower, 65,536 systems, µs (median of 7, L2 flushed; the copies into A and B subtracted); residual of the first 256", flush=True)
count = 65536
for n, nrhs, keys in [(48, r, ["warp:posv_warp<double, 48, false, false>", "half:posv_warp<double, 48, false, false>"]) for r in (4, 8, 12, 16)] + \
        [(n, r, [f"warp:potrs_warp<double, {(n + 3) // 4 * 4}, false>", "cta:potrs_cta<double, 64, 16, 8, false>"] +
          (["cta:posv_cta<double, 64, 16, 8, false>"] if n == 64 else [])) for n in (56, 64) for r in (1, 4, 16)]:
    a0 = spd(n, count); f0 = cp.linalg.cholesky(a0).transpose(0, 2, 1).copy()
    b0 = cp.random.RandomState(1).standard_normal((count, nrhs, n))
    ca, cb = cp.empty_like(a0), cp.empty_like(b0)
    def cp2(): ca[...] = a0; cb[...] = b0
    tc = timed(cp2); row = [f"n={n} nrhs={nrhs} copies {tc:.1f}"]
    for key in keys:
        go, b = run(key, a0, f0, b0, n, nrhs, count)
        t = timed(go) - tc
        x = b[:256].transpose(0, 2, 1); r = cp.matmul(a0[:256], x) - b0[:256].transpose(0, 2, 1)
        res = float(cp.max(cp.abs(r)) / cp.max(cp.abs(b0[:256])))
        row.append(f"{key} {t:.1f} (residual {res:.1e})")
    print("; ".join(row), flush=True)
