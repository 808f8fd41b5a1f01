# Session 30 lab 2: Posv float64 where posv_warp would spill, the two launches Posv now makes (potrf_warp or potrf_cta,
# then potrs_warp skipping failed matrices) against posv_cta, which served those calls before, on the same inputs in one
# process: Upper n = 56 (potrf_warp) and 64 (potrf_cta), Lower 64 (potrf_cta); 65,536 systems, 1, 4, 16 right-hand
# sides. vec = 0 (columns not moved as 16-byte vectors), as lab.py. Run from the repository root.
import cupy as cp, numpy as np, ctypes
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p).read()
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu")
SRC = {"cta": pre + '\n#line 1 "cta.cu"\n' + rd("internal/gpu/potrf/cta.cu"),
       "warp": pre + '\n#line 1 "warp.cu"\n' + rd("internal/gpu/potrf/warp.cu")}
NAMES = {"cta": [f"{k}_cta<double, 64, 16, {x}{u}>" for k, x in (("potrf", ""), ("posv", "8, ")) for u in ("false", "true")],
         "warp": ["potrf_warp<double, 56, true>"] + [f"potrs_warp<double, {nc}, {u}>" for nc in (56, 64) for u in ("false", "true")]}
def build(tag):
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), SRC[tag].encode(), f"{tag}.cu".encode(), 0, None, None)
    for k in NAMES[tag]: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    if nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o)): raise SystemExit(f"{tag}: compile failed")
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab30b-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path); fn = {}
    for k in NAMES[tag]:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); fn[k] = m.get_function(p.value.decode())
        print(f"{k}: {fn[k].num_regs} regs, local {fn[k].local_size_bytes} B", flush=True)
    return fn
F = {}
for t in ("cta", "warp"): F.update(build(t))
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(launch, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); launch(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
CTA_SHM = 16 * (4 * 64 - 16 * 6) * 8
def wshm(name, n):
    nc = (n + 3) // 4 * 4; shm = 2 * nc * (nc + 1) * 8
    if shm > 48 << 10: F[name].max_dynamic_shared_size_bytes = shm
    return shm
count = 65536
print("\n# double, 65,536 systems, µs (median of 7, L2 flushed; the copies into A and B subtracted); residual of the first 256", flush=True)
for uplo, n in (("true", 56), ("true", 64), ("false", 64)):
    nc = (n + 3) // 4 * 4
    y = cp.random.RandomState(n).standard_normal((count, n, n)); a0 = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    for nrhs in (1, 4, 16):
        b0 = cp.random.RandomState(1).standard_normal((count, nrhs, n))
        ca, cb = cp.empty_like(a0), cp.empty_like(b0)
        def cp2(): ca[...] = a0; cb[...] = b0
        tc = timed(cp2); row = [f"{'Upper' if uplo == 'true' else 'Lower'} n={n} nrhs={nrhs} copies {tc:.1f}"]
        a, b, info = a0.copy(), b0.copy(), cp.zeros(count, cp.int32)
        head = (a, np.int64(n), np.int64(n * n), np.int32(n))
        bargs = (b, np.int64(n), np.int64(n * nrhs), np.int32(nrhs))
        fac = f"potrf_warp<double, 56, {uplo}>" if n <= 56 else f"potrf_cta<double, 64, 16, {uplo}>"
        sol = f"potrs_warp<double, {nc}, {uplo}>"
        def two():
            a[...] = a0; b[...] = b0
            if n <= 56: F[fac](((count + 1) // 2,), (64,), head + (np.int32(count), info), shared_mem=wshm(fac, n))
            else: F[fac]((count,), (64,), head + (info, np.int32(0)), shared_mem=CTA_SHM)
            F[sol](((count + 1) // 2,), (64,), head + bargs + (np.int32(count), info), shared_mem=wshm(sol, n))
        one_name = f"posv_cta<double, 64, 16, 8, {uplo}>"
        def one():
            a[...] = a0; b[...] = b0
            F[one_name]((count,), (64,), head + bargs + (info, np.int32(0)), shared_mem=CTA_SHM)
        for label, go in ((f"{fac} + {sol}", two), (one_name, one)):
            t = timed(go) - tc
            x = b[:256].transpose(0, 2, 1); r = cp.matmul(a0[:256], x) - b0[:256].transpose(0, 2, 1)
            res = float(cp.max(cp.abs(r)) / cp.max(cp.abs(b0[:256])))
            row.append(f"{label} {t:.1f} (residual {res:.1e}, info≠0 {int(cp.count_nonzero(info))})")
        print("; ".join(row), flush=True)
