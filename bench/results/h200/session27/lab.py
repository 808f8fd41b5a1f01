# Session 27 lab: Upper through the shared tile with cp.async (variant E) against main (O): in place (VEC),
# through the tile, and Lower, float32 (and double at n <= 32), one process, CuPy events, L2 evicted.
import cupy as cp, numpy as np, sys, os, time
H = os.path.dirname(os.path.abspath(__file__))
pre = open(f"{H}/scalar.cuh").read()
def names_for():
    ns = []
    for t in ("float", "double"):
        for n in (8, 16, 32):
            lanes = 8 if n == 8 else n
            ns += [f"potrf_reg<{t}, {lanes}, {n}, false, false>", f"potrf_reg<{t}, {lanes}, {n}, true, true>", f"potrf_reg<{t}, {lanes}, {n}, true, false>"]
    ns += ["potrf_reg_min<float, 8, 8, false, false, 6>", "potrf_reg_min<float, 32, 32, false, false, 6>"]
    for nc in (40, 48, 56, 64):
        ns += [f"potrf_warp<float, {nc}, false, false>", f"potrf_warp<float, {nc}, true, true>", f"potrf_warp<float, {nc}, true, false>"]
        ns += [f"posv_warp<float, {nc}, true, true>", f"posv_warp<float, {nc}, true, false>"]
    return ns
NAMES = names_for()
mods = {}
class Mod:
    """Kernels compiled as the engine compiles them: NVRTC at $NVRTC (default the GPU machine's CUDA 13.0,
    /usr/local/cuda/lib64/libnvrtc.so), --gpu-architecture=sm_90 -std=c++17, to a cubin loaded by CuPy;
    with NVRTC=cupy, CuPy's own compiler (RawModule with name expressions)."""
    def __init__(self, v, code, names):
        lib = os.environ.get("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
        if lib == "cupy":
            m = cp.RawModule(code=code, options=("-std=c++17",), name_expressions=names)
            self.fn = {k: m.get_function(k) for k in names}
            return
        import ctypes
        nv = ctypes.CDLL(lib)
        prog = ctypes.c_void_p()
        nv.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"potrf.cu", 0, None, None)
        for k in names: nv.nvrtcAddNameExpression(prog, k.encode())
        opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
        rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
        if rc:
            n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_))
            log = ctypes.create_string_buffer(n_.value); nv.nvrtcGetProgramLog(prog, log)
            raise SystemExit(log.value.decode()[:3000])
        n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_))
        buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
        path = f"{H}/{v}.cubin"; open(path, "wb").write(buf.raw)
        m = cp.RawModule(path=path)
        self.fn = {}
        for k in names:
            p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p))
            self.fn[k] = m.get_function(p.value.decode())
    def get_function(self, k): return self.fn[k]
for v in sys.argv[1:] or ["O", "E"]:
    t0 = time.time()
    code = pre + '\n#line 1 "potrf.cu"\n' + open(f"{H}/src.{v}.cu").read()
    names = NAMES if v == "O" else [k for k in NAMES if k.endswith(", true, false>")]
    mods[v] = Mod(v, code, names)
    for k in names:
        f = mods[v].get_function(k)
        print(f"{v} {k}: {f.num_regs} regs, local {f.local_size_bytes} B", flush=True)
    print(f"{v} compiled in {time.time()-t0:.0f} s", flush=True)
flush = cp.empty(256 << 20, dtype=cp.uint8)

def spd(n, count, dt, seed):
    rs = cp.random.RandomState(seed)
    y = rs.standard_normal((count, n, n), dtype=cp.float64)
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.01 * cp.eye(n)[None]
    return a.astype(dt)

def launcher(v, name, n, nc, count, upper, dt, posv=False, nrhs=1):
    f = mods[v].get_function(name)
    es = np.dtype(dt).itemsize
    tile = name.endswith(", true, false>")
    if name.startswith("potrf_reg"):
        per = 128 // int(name.split(",")[1])
        grid, block = ((count + per - 1) // per,), (128,)
        shm = per * nc * (nc + 1) * es if tile else 0
    else:
        grid, block = ((count + 1) // 2,), (64,)
        shm = 2 * nc * (nc + 1) * es if (tile or posv) else 0
    if shm > 48 * 1024: f.max_dynamic_shared_size_bytes = shm
    def run(a, info, b=None):
        if posv:
            f(grid, block, (a, np.int64(n), np.int64(n * n), np.int32(n), b, np.int64(n), np.int64(n * nrhs), np.int32(nrhs), np.int32(count), info), shared_mem=shm)
        else:
            f(grid, block, (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info), shared_mem=shm)
    return run

def timeit(arms, k, reps):
    # arms: list of (label, run, pristine list, work list, info, bpr, bwk); interleaved
    ts = {a[0]: [] for a in arms}
    for r in range(reps + 1):
        for lab, run, pa, wa, info, pb, wb in arms:
            for j in range(k):
                wa[j][...] = pa[j]
                if pb is not None: wb[j][...] = pb[j]
            flush.fill(r & 255)
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            for j in range(k): run(wa[j], info, wb[j] if wb is not None else None)
            e.record(); e.synchronize()
            if r: ts[lab].append(cp.cuda.get_elapsed_time(s, e) * 1e3 / k)
    return {l: float(np.median(v)) for l, v in ts.items()}

def case(n, count, k, dt=np.float32, reps=9, vars_=("O", "E"), posv=False, nrhs=1):
    t = "float" if dt == np.float32 else "double"
    nc = (n + 3) // 4 * 4
    if n <= 32:
        lanes = 8 if nc <= 8 else (16 if nc <= 16 else 32)
        lo = f"potrf_reg_min<float, {lanes}, {nc}, false, false, 6>" if (t == "float" and nc in (8, 32)) else f"potrf_reg<{t}, {lanes}, {nc}, false, false>"
        uv, ut = f"potrf_reg<{t}, {lanes}, {nc}, true, true>", f"potrf_reg<{t}, {lanes}, {nc}, true, false>"
    else:
        kind = "posv_warp" if posv else "potrf_warp"
        lo = None if posv else f"potrf_warp<float, {nc}, false, false>"
        uv, ut = f"{kind}<float, {nc}, true, true>", f"{kind}<float, {nc}, true, false>"
    pa = [spd(n, count, dt, 7 + j) for j in range(k)]
    pb = [cp.random.RandomState(99 + j).standard_normal((count, nrhs, n)).astype(dt) for j in range(k)] if posv else None
    info = cp.zeros(count, dtype=cp.int32)
    arms = []
    def arm(label, v, name, upper):
        wa = [cp.empty_like(x) for x in pa]
        wb = [cp.empty_like(x) for x in pb] if posv else None
        arms.append((label, launcher(v, name, n, nc, count, upper, dt, posv, nrhs), pa, wa, info, pb, wb))
    if lo: arm("Lower", "O", lo, False)
    arm("U vec O", "O", uv, True)
    arm("U tile O", "O", ut, True)
    if "E" in vars_ and "E" in mods: arm("U tile E", "E", ut, True)
    res = timeit(arms, k, reps)
    # check: every Upper arm's factor (and X) bit-equal to U vec O's; Upper equals Lower transposed
    ref = arms[1 if lo else 0]
    bad = []
    mu = cp.triu(cp.ones((n, n), dtype=bool))  # in [col][row] storage, row <= col is the upper triangle: arr[m, c, r], r <= c -> tril of [c][r] view
    for lab, run, pa_, wa, info_, pb_, wb in arms:
        for j in range(k):
            wa[j][...] = pa_[j]
            if pb_ is not None: wb[j][...] = pb_[j]
        info_.fill(-1)
        run(wa[0], info_, wb[0] if wb is not None else None); cp.cuda.runtime.deviceSynchronize()
        if int(cp.count_nonzero(info_)) != 0: bad.append(f"{lab}: info nonzero")
    rv = arms[1 if lo else 0][3][0]
    up = cp.tril(cp.ones((n, n), dtype=bool))  # arr[m, c, r] with r <= c: the lower triangle of the [c][r] array
    for lab, run, pa_, wa, info_, pb_, wb in arms:
        if lab == "Lower":
            L = wa[0]  # arr[m, c, r] = L(r, c) for r >= c: upper triangle of the [c][r] array
            U = rv
            if not bool(cp.all(cp.where(up[None], U, 0) == cp.where(up[None], L.transpose(0, 2, 1), 0))): bad.append("Lower != Upper transposed")
        elif not bool(cp.all(cp.where(up[None], wa[0], 0) == cp.where(up[None], rv, 0))): bad.append(f"{lab}: factor differs from {arms[1 if lo else 0][0]}")
        elif not bool(cp.all(cp.where(~up[None], wa[0], 0) == cp.where(~up[None], pa_[0], 0))): bad.append(f"{lab}: other triangle written")
        if posv and wb is not None and not bool(cp.all(wb[0] == arms[0][6][0])): bad.append(f"{lab}: X differs")
    tag = f"{'posv ' if posv else ''}{t} n={n} count={count} x{k}{f' nrhs={nrhs}' if posv else ''}:"
    print(tag, "; ".join(f"{l} {v:.2f} µs" for l, v in res.items()), "|", "ok" if not bad else "BAD " + ", ".join(bad), flush=True)

if __name__ == "__main__":
    print("NVRTC", os.environ.get("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so"), "; CuPy's NVRTC", cp.cuda.nvrtc.getVersion(), flush=True)
    if os.environ.get("PLAN") == "short":
        for n, count, k in [(64, 1024, 16), (32, 4096, 16), (64, 65536, 1), (48, 65536, 1)]:
            case(n, count, k)
        raise SystemExit
    plan = [(64, 1024, 16), (32, 4096, 16), (64, 65536, 1), (56, 65536, 1), (48, 65536, 1), (40, 65536, 1), (32, 65536, 1), (16, 65536, 1),
            (8, 65536, 1), (48, 1024, 16), (64, 4096, 4), (48, 4096, 4), (64, 16384, 1), (48, 16384, 1), (16, 16384, 4)]
    for n, count, k in plan:
        case(n, count, k)
    for n, count, k in [(32, 65536, 1), (16, 65536, 1), (8, 65536, 1), (32, 4096, 16)]:
        case(n, count, k, dt=np.float64)
    for n in (48, 64):
        for nrhs in (1, 16):
            case(n, 65536, 1, posv=True, nrhs=nrhs)
