# Session 43 lab 3: where the new potrs_split (tri_solve by halves, kTriHalves = 8) should start, and where Posv
# should factor and solve in two launches instead of posv_warp. float64, working-tree warp.cu. (a) potrs_split
# against potrs_warp at NC = 36…48, both triangles; (b) Posv: posv_warp against potrf_warp then potrs_split, n = 36…56
# (Upper to 48, posv_warp's edge), 8, 12, 16 and 32 right-hand sides. Upper runs the kernels Go picks for 16-byte
# aligned columns (posv_warp VEC; float64 potrf_warp has no VEC kernel). Bits: X of the two Posv ways compared.
import cupy as cp, numpy as np, ctypes, os, sys
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
src = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n' + rd("internal/gpu/potrf/warp.cu")
B = lambda u: "true" if u else "false"
NCS = (36, 40, 44, 48, 52, 56)
NAMES = [f"potrs_split<double, {nc}, {B(u)}>" for nc in NCS for u in (0, 1)] + \
        [f"potrs_warp<double, {nc}, {B(u)}>" for nc in NCS for u in (0, 1)] + \
        [f"potrf_warp<double, {nc}, {B(u)}, false>" for nc in NCS for u in (0, 1)] + \
        [f"posv_warp<double, {nc}, false, false>" for nc in NCS] + [f"posv_warp<double, {nc}, true, true>" for nc in NCS if nc <= 48]
prog = ctypes.c_void_p()
nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"warp.cu", 0, None, None)
for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
nv.nvrtcGetProgramLog(prog, log)
if rc: print(log.value.decode()[-6000:], flush=True); raise SystemExit(1)
n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
open("/tmp/lab43e.cubin", "wb").write(buf.raw); m = cp.RawModule(path="/tmp/lab43e.cubin")
F = {}
for k in NAMES:
    p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); F[k] = m.get_function(p.value.decode())
    print(f"{k}: {F[k].num_regs} registers, local {F[k].local_size_bytes} B", flush=True)
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def wide_pitch(nc): c = nc // 2; return (c + 1 if c % 2 == 0 else c) * 2
def shm(k, nc):  # warp.go's shared bytes for the kernel Go launches
    if k.startswith("potrs_split"): return 2 * pitch(nc) * 8
    if k.startswith("potrs_warp"): return 2 * nc * (nc + 1) * 8
    if k.startswith("potrf_warp"): return 2 * nc * (nc + 1) * 8 if ", true," in k else 0  # float64 Upper: the tile (no wide one)
    if ", true, true>" in k and nc >= 48: return 2 * nc * max(nc + 1, wide_pitch(nc)) * 8
    return 2 * nc * (nc + 1) * 8
def call(k, a, lda, n, count, info, b=None, nrhs=0):
    nc = int(k.split(",")[1]); f = F[k]; sm = shm(k, nc)
    if sm > 48 << 10: f.max_dynamic_shared_size_bytes = sm
    args = (a, L(lda), L(lda * n), I(n), I(count), info) if k.startswith("potrf") else \
        (a, L(lda), L(lda * n), I(n), b, L(n), L(n * nrhs), I(nrhs), I(count), info)
    return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(n, count, seed):
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    return cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
def same(x, y): return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())
ncof = lambda n: (n + 3) // 4 * 4
print("\n# (a) potrs float64, µs (median of 7, L2 flushed, the copy of B subtracted): split against warp", flush=True)
for count in (65536, 16384):
    for u in (0, 1):
        for n in (33, 36, 40, 44, 48):
            if u and n % 2: continue  # VEC: 16-byte aligned columns
            nc = ncof(n); a = spd(n, count, 1); info = cp.zeros(count, cp.int32)
            call(f"potrf_warp<double, {nc}, {B(u)}, false>", a, n, n, count, info)()
            for nrhs in (1, 4, 8, 16):
                b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
                tb = timed(lambda: b.__setitem__(Ellipsis, b0)); row = []
                for kind in ("split", "warp"):
                    kk = call(f"potrs_{kind}<double, {nc}, {B(u)}>", a, n, n, count, info, b, nrhs)
                    def go(): b[...] = b0; kk()
                    row.append(f"{kind} {timed(go) - tb:.1f}")
                print(f"count={count} {'U' if u else 'L'} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
print("\n# (b) posv float64, µs (the copies of A and B subtracted): posv_warp against potrf_warp + potrs_split", flush=True)
fails = 0
for count in (65536, 16384):
    for u in (0, 1):
        for n in (36, 40, 44, 48, 52, 56):
            if u and n > 48: continue
            nc = ncof(n); a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
            for nrhs in (8, 12, 16, 32):
                if count == 16384 and nrhs == 32: continue
                b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
                tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0))); row = []
                kp = call(f"posv_warp<double, {nc}, {B(u)}, {B(u)}>", a, n, n, count, info, b, nrhs)
                kf = call(f"potrf_warp<double, {nc}, {B(u)}, false>", a, n, n, count, info)
                ks = call(f"potrs_split<double, {nc}, {B(u)}>", a, n, n, count, info, b, nrhs)
                def one(): a[...] = a0; b[...] = b0; kp()
                def two(): a[...] = a0; b[...] = b0; kf(); ks()
                row.append(f"posv_warp {timed(one) - tab:.1f}"); row.append(f"two {timed(two) - tab:.1f}")
                one(); x1 = b.copy(); two(); same_ = same(b, x1) and bool(cp.isfinite(b).all())
                fails += not same_
                print(f"count={count} {'U' if u else 'L'} n={n} nrhs={nrhs}: " + "; ".join(row) + ("" if same_ else " BITS DIFFER"), flush=True)
print(f"# posv bits: {fails} differ", flush=True)
print("# done", flush=True)
