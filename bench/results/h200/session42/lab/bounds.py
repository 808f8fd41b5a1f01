# Session 42 lab 2: potrf_split with __launch_bounds__(64, MINB) (MINB blocks of two warps a multiprocessor: at 6,
# 168 registers at most, 12 warps) against the committed kernel (178–182 registers, 10 warps), float64, 65,536
# matrices; and the composition Posv takes at n = 57…64 (potrf_split, then potrs_split) with 1, 4 and 16 right-hand
# sides. PROF=1: one launch each of potrf_split<double, 64, false> and potrs_split<double, 64, false> (16 right-hand
# sides) on 16,384 matrices, for ncu. Run from the repository root.
import cupy as cp, numpy as np, ctypes, os, sys, time
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu")
warp = rd("internal/gpu/potrf/warp.cu")
old = "template <typename T, int NC, bool UPPER>\n__global__ void potrf_split("
assert warp.count(old) == 1
def bounded(minb): return warp.replace(old, f"template <typename T, int NC, bool UPPER>\n__global__ void __launch_bounds__(64, {minb}) potrf_split(")
PROF = os.environ.get("PROF") == "1"
VARIANTS = {"now": warp} if PROF else {"now": warp, "lb6": bounded(6), "lb7": bounded(7)}
NAMES = [f"potrf_split<double, {nc}, {u}>" for nc in (60, 64) for u in ("false", "true")] + \
        [f"potrs_split<double, {nc}, {u}>" for nc in (60, 64) for u in ("false", "true")]
F = {}
def build(tag, code):
    prog = ctypes.c_void_p(); src = pre + '\n#line 1 "warp.cu"\n' + code
    nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"warp.cu", 0, None, None)
    for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17", b"-lineinfo"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: print(log.value.decode()[-6000:], flush=True); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab42b-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path)
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); f = m.get_function(p.value.decode())
        F[tag + ":" + k] = f
        if not PROF: print(f"{tag}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
for t, c in VARIANTS.items(): build(t, c)
def shm(nc): e = nc * (nc + 1) // 2; return 2 * ((e + 1) // 2 * 2) * 8
def potrf(key, a, n, count, info):
    nc = (n + 3) // 4 * 4
    return lambda: F[key](((count + 1) // 2,), (64,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info), shared_mem=shm(nc))
def potrs(key, a, n, count, info, b, nrhs):
    nc = (n + 3) // 4 * 4
    return lambda: F[key](((count + 1) // 2,), (64,), (a, np.int64(n), np.int64(n * n), np.int32(n), b, np.int64(n), np.int64(n * nrhs),
                                                       np.int32(nrhs), np.int32(count), info), shared_mem=shm(nc))
def spd(n, count, upper):
    y = cp.random.RandomState(n).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    return a  # symmetric: either triangle as stored column-major
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
if PROF:
    count, n = 16384, 64
    a0 = spd(n, count, False); a = a0.copy(); info = cp.zeros(count, cp.int32)
    potrf("now:potrf_split<double, 64, false>", a, n, count, info)(); cp.cuda.Device().synchronize()
    b = cp.random.RandomState(1).standard_normal((count, 16, n))
    potrs("now:potrs_split<double, 64, false>", a, n, count, info, b, 16)(); cp.cuda.Device().synchronize()
    print("prof: info nonzero", int((info != 0).sum())); sys.exit(0)
print("\n# float64, 65,536 matrices, µs (median of 7, L2 flushed, copies subtracted)", flush=True)
count = 65536
for upper in ("false", "true"):
    for n in (64, 57):
        nc = (n + 3) // 4 * 4; a0 = spd(n, count, upper == "true"); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
        tc = timed(lambda: a.__setitem__(Ellipsis, a0)); row = []
        ref = None
        for tag in VARIANTS:
            k = potrf(f"{tag}:potrf_split<double, {nc}, {upper}>", a, n, count, info)
            def go(): a[...] = a0; k()
            row.append(f"{tag} {timed(go) - tc:.1f}")
            go(); cp.cuda.Device().synchronize(); got = a.copy()
            if ref is None: ref = got
            elif not bool(((got == ref) | (cp.isnan(got) & cp.isnan(ref))).all()): row[-1] += " (bits differ!)"
        b0 = cp.random.RandomState(2).standard_normal((count, 16, n)); b = cp.empty_like(b0)
        for nrhs in (1, 4, 16):
            bv0 = b0[:, :nrhs].copy(); bv = cp.empty_like(bv0)
            tcb = timed(lambda: (a.__setitem__(Ellipsis, a0), bv.__setitem__(Ellipsis, bv0)))
            kf = potrf(f"now:potrf_split<double, {nc}, {upper}>", a, n, count, info)
            ks = potrs(f"now:potrs_split<double, {nc}, {upper}>", a, n, count, info, bv, nrhs)
            def go2(): a[...] = a0; bv[...] = bv0; kf(); ks()
            row.append(f"posv {nrhs} {timed(go2) - tcb:.1f}")
        print(f"n={n} upper={upper}: " + "; ".join(row), flush=True)
print("# done", flush=True)
