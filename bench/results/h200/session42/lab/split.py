# Session 42 lab: the split body (warp.cu's potrf_split, posv_split, potrs_split: the packed tile, two blocks of
# columns) against what serves float64 n = 57…64 today (potrf_cta, then potrs_warp) and against warp_body where both
# exist (n ≤ 56). Registers and local memory of each kernel; bits against warp_body's kernels; residuals and info
# against the float64 oracle (numpy); times at 65,536 matrices (CUDA events, L2 flushed, copies subtracted).
# Sources as the engine joins them: scalar.cuh, potrf.cu, sweeps.cu, then cta.cu or warp.cu. Run from the repo root.
# Call 1 ran it on lab/call1-warp.cu.xz (WARP_CU=that file unpacked), which still has posv_split (the split body
# with tri_solve after it in the same warp); the committed warp.cu dropped it (warp.cu's comment says why).
import cupy as cp, numpy as np, ctypes, os, sys, time
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu")
SRC = {"cta": pre + '\n#line 1 "cta.cu"\n' + rd("internal/gpu/potrf/cta.cu"),
       "warp": pre + '\n#line 1 "warp.cu"\n' + rd(os.environ.get("WARP_CU", "internal/gpu/potrf/warp.cu"))}
B = lambda u: "true" if u else "false"
NAMES = {"cta": [f"potrf_cta<double, 64, 16, {B(u)}>" for u in (0, 1)],
         "warp": [f"{k}_split<{t}, {nc}, {B(u)}>" for k in ("potrf", "posv", "potrs") for t, ncs in
                  (("double", (52, 56, 60, 64)), ("float", (64,))) for nc in ncs for u in (0, 1)] +
                 [f"potrf_warp<{t}, {nc}, {B(u)}, false>" for t, nc in (("double", 56), ("float", 64)) for u in (0, 1)] +
                 [f"posv_warp<{t}, {nc}, false, false>" for t, nc in (("double", 56), ("float", 64))] +
                 [f"potrs_warp<double, {nc}, {B(u)}>" for nc in (56, 60, 64) for u in (0, 1)]}
F = {}
def build(tag):
    t0 = time.time(); prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), SRC[tag].encode(), f"{tag}.cu".encode(), 0, None, None)
    for k in NAMES[tag]: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: print(log.value.decode()[-6000:], flush=True); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab42-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path)
    for k in NAMES[tag]:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); f = m.get_function(p.value.decode())
        F[k] = f
        print(f"{k}: {f.num_regs} registers, local {f.local_size_bytes} B, static shared {f.shared_size_bytes} B", flush=True)
    print(f"# {tag}: compiled in {time.time() - t0:.0f} s", flush=True)
build("warp"); build("cta")

def dsize(dt): return 8 if dt == np.float64 else 4
def nc_of(n): return (n + 3) // 4 * 4
def split_pitch(dt, nc):
    v = 16 // dsize(dt); e = nc * (nc + 1) // 2; return (e + v - 1) // v * v
def launch(key, a, lda, n, count, info, b=None, nrhs=0, ldb=0, dt=np.float64):
    name = key; base = name.split("<")[0]; I, L = np.int32, np.int64
    if base == "potrf_cta":
        return lambda: F[key]((count,), (64,), (a, L(lda), L(lda * n), I(n), info, I(0)), shared_mem=16 * (4 * 64 - 16 * 6) * 8)
    nc = int(name.split(",")[1]); upper = name.split(",")[2].strip().startswith("true")
    if base.endswith("_split"): shm = 2 * split_pitch(dt, nc) * dsize(dt)
    elif base == "potrf_warp": shm = 2 * nc * (nc + 1) * dsize(dt) if upper else 0
    else: shm = 2 * nc * (nc + 1) * dsize(dt)
    if shm > 48 << 10: F[key].max_dynamic_shared_size_bytes = shm
    grid = ((count + 1) // 2,)
    if base.startswith("potrf"): args = (a, L(lda), L(lda * n), I(n), I(count), info)
    else:
        tail = (I(count), info)
        args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs)) + tail
    return lambda: F[key](grid, (64,), args, shared_mem=shm)

def spd(n, count, dt, seed=1):
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    return a.astype(dt)
def store(a, lda, upper):
    # A (count, n, n) symmetric → column-major with leading dimension lda, the other triangle NaN.
    count, n, _ = a.shape; s = cp.full((count, n, lda), cp.nan, dtype=a.dtype)  # s[m][c][r] = A(r, c)
    t = a.transpose(0, 2, 1)
    mask = cp.tril(cp.ones((n, n), bool)) if not upper else cp.triu(cp.ones((n, n), bool))
    # element (r, c) is kept where mask[r, c]: s[m][c][r] = A(r, c) for the stored triangle
    s[:, :, :n] = cp.where(mask.T[None], t, cp.nan)
    return s
def factor_of(s, n, upper):
    # L (count, n, n) from the stored column-major s (count, n, lda).
    t = s[:, :, :n].transpose(0, 2, 1)  # t[m][r][c] = stored (r, c)
    return cp.tril(t) if not upper else cp.tril(t.transpose(0, 2, 1))

flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))

fails = 0
def check(cond, what):
    global fails
    if not cond: fails += 1
    print(("ok   " if cond else "FAIL ") + what, flush=True)

print("\n# checks", flush=True)
for dt, tname in ((np.float64, "double"), (np.float32, "float")):
    ns = (49, 52, 53, 56, 57, 60, 61, 63, 64) if dt == np.float64 else (61, 64)
    for n in ns:
        nc = nc_of(n)
        for upper in (False, True):
            count = 37; lda = n + 3
            a = spd(n, count, np.float64, seed=n)
            a[5, 10, 10] = -1.0                       # fails at column 10 (info 11)
            a[6, n - 2, n - 2] = -50.0                # fails late (info n - 1)
            a[7, 40, 3] = a[7, 3, 40] = cp.nan        # NaN in the first block's rows, second block
            a[8, 45, 45] = 1e-30                      # a tiny pivot, near failure
            a = a.astype(dt)
            s0 = store(a, lda, upper); info = cp.zeros(count, cp.int32)
            s = s0.copy(); launch(f"potrf_split<{tname}, {nc}, {B(upper)}>", s, lda, n, count, info, dt=dt)()
            cp.cuda.Device().synchronize()
            inf_ = info.get()
            okm = [m for m in range(count) if inf_[m] == 0]
            Lf = factor_of(s, n, upper).astype(np.float64)
            A64 = a.astype(np.float64)
            r = cp.abs(cp.matmul(Lf[okm], Lf[okm].transpose(0, 2, 1)) - A64[okm]).sum(axis=1).max(axis=1) / cp.abs(A64[okm]).sum(axis=1).max(axis=1)
            eps = np.finfo(dt).eps; worst = float(r.max()) / (n * eps)
            check(worst <= 20, f"potrf_split {tname} n={n} {'U' if upper else 'L'}: ‖LLᵀ−A‖₁/(n·eps·‖A‖₁) worst {worst:.2f}; info {list(inf_[5:9])}")
            exp = []  # the oracle's info: the order of the first leading minor that is NaN or not positive definite
            for m in (5, 6, 7, 8):
                am = A64[m].get(); k = 0
                for j in range(1, n + 1):
                    if np.isnan(am[:j, :j]).any(): k = j; break
                    try: np.linalg.cholesky(am[:j, :j])
                    except np.linalg.LinAlgError: k = j; break
                exp.append(k)
            check(list(inf_[5:9]) == exp or (dt == np.float32), f"  info against the oracle's first failing minor {exp}")
            # the stored other triangle and the padding columns untouched (NaN stays NaN)
            other = cp.tril(cp.ones((n, n), bool), -1) if not upper else cp.triu(cp.ones((n, n), bool), 1)  # [c][r]
            check(bool(cp.isnan(s[:, :, :n][:, other]).all()) and bool(cp.isnan(s[:, :, n:]).all()),
                  "  the other triangle and the rows past n untouched")
            if nc == 56 and dt == np.float64 or nc == 64 and dt == np.float32:
                s2 = s0.copy(); info2 = cp.zeros(count, cp.int32)
                launch(f"potrf_warp<{tname}, {nc}, {B(upper)}, false>", s2, lda, n, count, info2, dt=dt)()
                same = bool(((s == s2) | (cp.isnan(s) & cp.isnan(s2))).all()) and bool((info == info2).all())
                check(same, f"  bits and info equal potrf_warp's")
            # posv_split and potrs_split against the oracle's solution, and X's bits against potrs_split on the factor
            nrhs = 3; ldb = n + 1
            bb = cp.random.RandomState(7).standard_normal((count, nrhs, ldb)).astype(dt)
            s3 = s0.copy(); x = bb.copy(); info3 = cp.zeros(count, cp.int32)
            launch(f"posv_split<{tname}, {nc}, {B(upper)}>", s3, lda, n, count, info3, x, nrhs, ldb, dt)()
            x2 = bb.copy()
            launch(f"potrs_split<{tname}, {nc}, {B(upper)}>", s, lda, n, count, info, x2, nrhs, ldb, dt)()
            cp.cuda.Device().synchronize()
            same = bool(((s3 == s) | (cp.isnan(s3) & cp.isnan(s))).all()) and bool((info3 == info).all())
            check(same, "  posv_split: A and info equal potrf_split's")
            check(bool(((x == x2) | (cp.isnan(x) & cp.isnan(x2))).all()), "  posv_split's X equals potrs_split's on that factor (failed B unchanged)")
            xs = x[okm, :, :n].transpose(0, 2, 1).astype(np.float64); bs = bb[okm, :, :n].transpose(0, 2, 1).astype(np.float64)
            res = cp.abs(cp.matmul(A64[okm], xs) - bs).max(axis=1).max() / (cp.abs(A64[okm]).sum(axis=2).max() * cp.abs(xs).max() * n * np.finfo(dt).eps)
            check(float(res) <= 30, f"  residual ‖AX−B‖/(‖A‖‖X‖·n·eps) {float(res):.2f}")
            bad = [m for m in range(count) if inf_[m] != 0]
            check(bool(cp.array_equal(x[bad], bb[bad])), f"  failed systems' B unchanged ({len(bad)})")
            check(bool((x[:, :, n:] == bb[:, :, n:]).all()), "  B's rows past n unchanged")
            if nc >= 56 and dt == np.float64:
                x3 = bb.copy(); launch(f"potrs_warp<double, {nc}, {B(upper)}>", s, lda, n, count, info, x3, nrhs, ldb)()
                cp.cuda.Device().synchronize()
                check(bool(((x3 == x2) | (cp.isnan(x3) & cp.isnan(x2))).all()), "  potrs_split's X equals potrs_warp's")
            if nc == 56 and dt == np.float64 and not upper:
                x4 = bb.copy(); s4 = s0.copy(); info4 = cp.zeros(count, cp.int32)
                launch("posv_warp<double, 56, false, false>", s4, lda, n, count, info4, x4, nrhs, ldb)()
                cp.cuda.Device().synchronize()
                check(bool(((x4 == x) | (cp.isnan(x4) & cp.isnan(x))).all()), "  posv_split's X equals posv_warp's")
print(f"# checks: {fails} failed", flush=True)
sys.stdout.flush()

print("\n# times, 65,536 matrices, lda = n, µs (median of 7, L2 flushed; the copies into A and B subtracted)", flush=True)
count = 65536
def bench(dt, tname, n, upper, rows):
    a = spd(n, count, dt, seed=3); s0 = store(a, n, upper); nc = nc_of(n)
    s = cp.empty_like(s0); info = cp.zeros(count, cp.int32)
    def cpy(): s[...] = s0
    tc = timed(cpy); out = []
    for label, keys, nrhs in rows:
        x0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)).astype(dt) if nrhs else None
        x = cp.empty_like(x0) if nrhs else None
        ks = [launch(k, s, n, n, count, info, x, nrhs, n, dt) for k in keys]
        def go():
            s[...] = s0
            if nrhs: x[...] = x0
            for k in ks: k()
        tcx = tc + (timed(lambda: x.__setitem__(Ellipsis, x0)) if nrhs else 0)
        t = timed(go) - tcx
        ok = int((info == 0).sum())
        out.append(f"{label} {t:.1f}" + ("" if ok == count else f" (info≠0: {count - ok})"))
    print(f"{tname} n={n} {'U' if upper else 'L'}: " + "; ".join(out), flush=True)
for upper in (False, True):
    u = B(upper)
    for n in (64, 60, 57):
        nc = nc_of(n)
        bench(np.float64, "double", n, upper, [("potrf_split", [f"potrf_split<double, {nc}, {u}>"], 0),
                                               ("potrf_cta", [f"potrf_cta<double, 64, 16, {u}>"], 0)] +
              [(f"posv_split {r}", [f"posv_split<double, {nc}, {u}>"], r) for r in (1, 4, 16)] +
              [(f"cta+potrs_warp {r}", [f"potrf_cta<double, 64, 16, {u}>", f"potrs_warp<double, {nc}, {u}>"], r) for r in (1, 16)] +
              [(f"potrs_split {r}", [f"potrs_split<double, {nc}, {u}>"], r) for r in (1, 16)] +
              [(f"potrs_warp {r}", [f"potrs_warp<double, {nc}, {u}>"], r) for r in (1, 16)])
    bench(np.float64, "double", 56, upper, [("potrf_split", [f"potrf_split<double, 56, {u}>"], 0),
                                            ("potrf_warp", [f"potrf_warp<double, 56, {u}, false>"], 0)] +
          ([("posv_split 1", ["posv_split<double, 56, false>"], 1), ("posv_warp 1", ["posv_warp<double, 56, false, false>"], 1),
            ("posv_split 16", ["posv_split<double, 56, false>"], 16), ("posv_warp 16", ["posv_warp<double, 56, false, false>"], 16)]
           if not upper else [("posv_split 1", ["posv_split<double, 56, true>"], 1),
                              ("warp+potrs_warp 1", ["potrf_warp<double, 56, true, false>", "potrs_warp<double, 56, true>"], 1)]))
    bench(np.float64, "double", 52, upper, [("potrf_split", [f"potrf_split<double, 52, {u}>"], 0), ("posv_split 1", [f"posv_split<double, 52, {u}>"], 1)])
    bench(np.float32, "float", 64, upper, [("potrf_split", [f"potrf_split<float, 64, {u}>"], 0),
                                           ("potrf_warp", [f"potrf_warp<float, 64, {u}, false>"], 0)] +
          ([("posv_split 1", ["posv_split<float, 64, false>"], 1), ("posv_warp 1", ["posv_warp<float, 64, false, false>"], 1)] if not upper else []))
print("# done", flush=True)
