# Session 42 lab 4: warp.cu's final potrf_split (the panels of lab/panels.cu) instantiated at NC = 52 and 56, where
# warp_body exists too: bits and info against potrf_warp on a mixed batch (failures early, late, NaN; lda > n), both
# triangles; registers; times at 65,536 matrices of potrf_split and of Posv's two launches. Run from the repo root.
import cupy as cp, numpy as np, ctypes, sys
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
src = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n' + rd("internal/gpu/potrf/warp.cu")
B = lambda u: "true" if u else "false"
NAMES = [f"potrf_split<double, {nc}, {B(u)}>" for nc in (52, 56, 60, 64) for u in (0, 1)] + \
        [f"potrf_warp<double, {nc}, {B(u)}, false>" for nc in (52, 56) for u in (0, 1)] + \
        [f"potrs_split<double, {nc}, {B(u)}>" for nc in (60, 64) for u in (0, 1)]
F = {}
prog = ctypes.c_void_p()
nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"warp.cu", 0, None, None)
for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
nv.nvrtcGetProgramLog(prog, log)
if rc: print(log.value.decode()[-6000:], flush=True); raise SystemExit(1)
n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
open("/tmp/lab42c.cubin", "wb").write(buf.raw); m = cp.RawModule(path="/tmp/lab42c.cubin")
for k in NAMES:
    p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); F[k] = m.get_function(p.value.decode())
    print(f"{k}: {F[k].num_regs} registers, local {F[k].local_size_bytes} B", flush=True)
def size(k): return 8 if "double" in k else 4
def nc_of(k): return int(k.split(",")[1])
def shm(k):
    nc, s = nc_of(k), size(k); v = 16 // s
    if k.startswith("potrf_warp"): return 2 * nc * (nc + 1) * s if ", true" in k else 0
    return 2 * ((nc * (nc + 1) // 2 + v - 1) // v * v) * s
def launch(k, a, lda, n, count, info, b=None, nrhs=0):
    sm = shm(k)
    if sm > 48 << 10: F[k].max_dynamic_shared_size_bytes = sm
    I, L = np.int32, np.int64
    args = (a, L(lda), L(lda * n), I(n), I(count), info) if k.startswith("potrf") else \
        (a, L(lda), L(lda * n), I(n), b, L(n), L(n * nrhs), I(nrhs), I(count), info)
    return lambda: F[k](((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(n, count, seed):
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    return cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
fails = 0
print("\n# checks", flush=True)
for t, dt, pairs in (("double", np.float64, [(n, "potrf_warp") for n in (49, 52, 53, 56)]),):
    for n, other in pairs:
        nc = (n + 3) // 4 * 4
        for u in (0, 1):
            count, lda = 29, n + 3
            a = spd(n, count, n)
            a[3, 10, 10] = -1.0; a[4, n - 2, n - 2] = -50.0; a[5, 40, 3] = a[5, 3, 40] = cp.nan; a[6, 20, 20] = cp.nan
            s0 = cp.full((count, n, lda), cp.nan, dtype=dt); s0[:, :, :n] = a.astype(dt)
            ka = f"potrf_split<{t}, {nc}, {B(u)}>"; kb = f"{other}<{t}, {nc}, {B(u)}" + (", false>" if other == "potrf_warp" else ">")
            s1, s2 = s0.copy(), s0.copy(); i1, i2 = cp.zeros(count, cp.int32), cp.zeros(count, cp.int32)
            launch(ka, s1, lda, n, count, i1)(); launch(kb, s2, lda, n, count, i2)(); cp.cuda.Device().synchronize()
            same = bool(((s1 == s2) | (cp.isnan(s1) & cp.isnan(s2))).all()) and bool((i1 == i2).all())
            ok = same and list(i1.get()[3:7]) == [11, n - 1, 41, 21]
            fails += not ok
            print(("ok   " if ok else "FAIL ") + f"{ka} against {kb}: bits {'equal' if same else 'DIFFER'}, info {list(i1.get()[3:7])}", flush=True)
print(f"# checks: {fails} failed", flush=True)
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
print("\n# times, 65,536 matrices, lda = n, µs (median of 7, L2 flushed, the copies subtracted)", flush=True)
count = 65536
for n in (64, 57):
    nc = (n + 3) // 4 * 4; a0 = spd(n, count, 5); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
    for u in (0, 1):
        tc = timed(lambda: a.__setitem__(Ellipsis, a0)); row = []
        kk = launch(f"potrf_split<double, {nc}, {B(u)}>", a, n, n, count, info)
        def go(): a[...] = a0; kk()
        row.append(f"potrf_split {timed(go) - tc:.1f}")
        for nrhs in (1, 4, 16):
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
            tcb = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
            ks = launch(f"potrs_split<double, {nc}, {B(u)}>", a, n, n, count, info, b, nrhs)
            def go2(): a[...] = a0; b[...] = b0; kk(); ks()
            row.append(f"then potrs_split {nrhs} {timed(go2) - tcb:.1f}")
        print(f"double n={n} {'U' if u else 'L'}: " + "; ".join(row), flush=True)
print("# done", flush=True)
