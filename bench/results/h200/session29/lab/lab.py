# Session 29 lab: can the warp tier (warp.cu) take float64? Registers and local memory of potrf_warp, posv_warp and
# potrs_warp for double at every bucket (CUDA 13's NVRTC, the engine's options), then their time against the CTA
# tier's (potrf_cta, posv_cta), which serves float64 at 33 ≤ n ≤ 64 today, on the same SPD inputs, with each result
# checked against cupy's float64 Cholesky and solve. Sources: internal/gpu/scalar/scalar.cuh, then potrf.cu and
# cta.cu (one module) or potrf.cu and warp.cu (another), as the engine concatenates them. Run from the repository root.
import cupy as cp, numpy as np, ctypes, sys
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p).read()
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu")
SRC = {"cta": pre + '\n#line 1 "cta.cu"\n' + rd("internal/gpu/potrf/cta.cu"),
       "warp": pre + '\n#line 1 "warp.cu"\n' + rd("internal/gpu/potrf/warp.cu")}
NCS = [36, 40, 44, 48, 52, 56, 60, 64]
NAMES = {"cta": ["potrf_cta<double, 64, 16, false>", "posv_cta<double, 64, 16, 8, false>"],
         "warp": [f"potrf_warp<double, {nc}, false>" for nc in NCS] + [f"potrf_warp<double, {nc}, true>" for nc in (48, 64)] +
                 [f"posv_warp<double, {nc}, false, false>" for nc in NCS] + [f"posv_warp<double, {nc}, true, true>" for nc in (48, 64)] +
                 [f"potrs_warp<double, {nc}, false>" for nc in (48, 64)]}
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
    path = f"/tmp/lab29-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path); fn = {}
    for k in NAMES[tag]:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); fn[k] = m.get_function(p.value.decode())
        print(f"{k}: {fn[k].num_regs} regs, local {fn[k].local_size_bytes} B", flush=True)
    return fn
F = {}
for t in ("cta", "warp"): F.update(build(t))
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
def run_potrf(name, a0, n, count):
    a = a0.copy(); info = cp.full(count, -7, cp.int32)
    if name.startswith("potrf_warp"):
        nc = (n + 3) // 4 * 4; shm = 2 * nc * (nc + 1) * 8 if name.endswith("true>") else 0
        if shm > 48 << 10: F[name].max_dynamic_shared_size_bytes = shm
        args = (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info); grid, block = ((count + 1) // 2,), (64,)
    else:
        shm = 16 * (4 * 64 - 16 * 6) * 8; args = (a, np.int64(n), np.int64(n * n), np.int32(n), info, np.int32(0)); grid, block = (count,), (64,)
    def go():
        a[...] = a0
        F[name](grid, block, args, shared_mem=shm)
    return go, a, info
def run_posv(name, a0, b0, n, nrhs, count):
    a = a0.copy(); b = b0.copy(); info = cp.full(count, -7, cp.int32)
    if name.startswith("posv_warp"):
        nc = (n + 3) // 4 * 4; shm = 2 * nc * (nc + 1) * 8
        if shm > 48 << 10: F[name].max_dynamic_shared_size_bytes = shm
        args = (a, np.int64(n), np.int64(n * n), np.int32(n), b, np.int64(n), np.int64(n * nrhs), np.int32(nrhs), np.int32(count), info)
        grid, block = ((count + 1) // 2,), (64,)
    else:
        shm = 16 * (4 * 64 - 16 * 6) * 8
        args = (a, np.int64(n), np.int64(n * n), np.int32(n), b, np.int64(n), np.int64(n * nrhs), np.int32(nrhs), info, np.int32(0))
        grid, block = (count,), (64,)
    def go():
        a[...] = a0; b[...] = b0
        F[name](grid, block, args, shared_mem=shm)
    return go, a, b, info
def check_factor(a, a0, info, upper):
    # A is column-major: element (r, c) of matrix m at a[m][c][r]. Lower: L = tril(aᵀ); Upper: U = triu(aᵀ), L = Uᵀ = tril(a).
    k = min(a.shape[0], 512)
    L = cp.tril(a[:k]) if upper else cp.tril(a[:k].transpose(0, 2, 1))
    ref = cp.linalg.cholesky(a0[:k])
    return float(cp.max(cp.abs(L - ref)) / cp.max(cp.abs(ref))), int(cp.count_nonzero(info))
print("\n# potrf, double, µs (median of 7, L2 flushed; the copy into A is inside both: a[...] = a0 then the kernel)", flush=True)
for n in (36, 40, 48, 56, 64):
    for count in (16384, 65536):
        a0 = spd(n, count); nc = (n + 3) // 4 * 4
        cp.cuda.Device().synchronize()
        c = cp.empty_like(a0); tc = timed(lambda: c.__setitem__(Ellipsis, a0))
        row = [f"n={n} count={count} copy {tc:.1f}"]
        names = [f"potrf_warp<double, {nc}, false>"] + ([f"potrf_warp<double, {nc}, true>"] if nc in (48, 64) else []) + ["potrf_cta<double, 64, 16, false>"]
        for name in names:
            go, a, info = run_potrf(name, a0, n, count)
            t = timed(go) - tc
            err, bad = check_factor(a, a0, info, name.endswith("true>"))
            row.append(f"{name} {t:.1f} (err {err:.1e}, info≠0 {bad})")
        print("; ".join(row), flush=True)
print("\n# posv, double, Lower, µs (median of 7; the copies into A and B subtracted)", flush=True)
for n in (40, 48, 56, 64):
    for nrhs in (1, 4, 16):
        for count in (16384, 65536):
            a0 = spd(n, count); b0 = cp.random.RandomState(1).standard_normal((count, nrhs, n)); nc = (n + 3) // 4 * 4
            ca, cb = cp.empty_like(a0), cp.empty_like(b0)
            def cp2(): ca[...] = a0; cb[...] = b0
            tc = timed(cp2)
            row = [f"n={n} nrhs={nrhs} count={count} copies {tc:.1f}"]
            xref = None
            for name in (f"posv_warp<double, {nc}, false, false>", "posv_cta<double, 64, 16, 8, false>"):
                go, a, b, info = run_posv(name, a0, b0, n, nrhs, count)
                t = timed(go) - tc
                k = min(count, 256)
                x = b[:k].transpose(0, 2, 1); r = cp.matmul(a0[:k], x) - b0[:k].transpose(0, 2, 1)
                res = float(cp.max(cp.abs(r)) / cp.max(cp.abs(b0[:k])))
                row.append(f"{name} {t:.1f} (residual {res:.1e}, info≠0 {int(cp.count_nonzero(info))})")
            print("; ".join(row), flush=True)
