# Session 43 lab 1 (float64, Lower, the Posv cells under 5x): (a) posv_reg and potrs_reg at n = 32 and 28 with 16
# right-hand sides in one chunk (NR = 16) against two chunks of 8 (posv.go's maxChunk today); (b) lab/group.cu's
# potrs_group (G warps a matrix on one packed tile, the columns of B shared out) against potrs_split (n = 64, 57) and
# potrs_warp (n = 48), X's bits compared, failed matrices skipped; (c) Posv as potrf then potrs_group against today's
# Posv (potrf_split + potrs_split at 64, posv_warp at 48). PROF=1: one launch of each kernel ncu should see.
import cupy as cp, numpy as np, ctypes, os, sys
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
scal = rd("internal/gpu/scalar/scalar.cuh")
wsrc = scal + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + '\n#line 1 "sweeps.cu"\n' + \
    rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n' + rd("internal/gpu/potrf/warp.cu") + \
    '\n#line 1 "group.cu"\n' + rd(os.path.join(HERE, "group.cu"))
psrc = scal + '\n#line 1 "posv.cu"\n' + rd("internal/gpu/posv/posv.cu")
PROF = os.environ.get("PROF") == "1"
F = {}
def build(tag, src, names):
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"lab.cu", 0, None, None)
    for k in names: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17", b"-lineinfo"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: print(log.value.decode()[-6000:], flush=True); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab43-{tag}.cubin"; open(path, "wb").write(buf.raw); m = cp.RawModule(path=path)
    for k in names:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); F[k] = m.get_function(p.value.decode())
        if not PROF: print(f"{k}: {F[k].num_regs} registers, local {F[k].local_size_bytes} B", flush=True)
REG = [f"{k}_reg<double, 32, {nc}, {nr}, false, 128>" for k in ("posv", "potrs") for nc in (28, 32) for nr in (8, 16)]
WARP = ["potrf_split<double, 64, false>", "potrf_split<double, 60, false>", "potrf_warp<double, 48, false, false>",
        "potrs_split<double, 64, false>", "potrs_split<double, 60, false>", "potrs_warp<double, 48, false>",
        "posv_warp<double, 48, false, false>"] + \
       [f"potrs_group<double, {nc}, false, {g}>" for nc in (48, 60, 64) for g in (1, 2, 4)]
build("reg", psrc, REG); build("warp", wsrc, WARP)
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def nc_of(k): return int(k.split(",")[1])
def call(k, a, lda, n, count, info=None, b=None, nrhs=0):
    """A closure queueing kernel k on count matrices (A n x n, lda; B n x nrhs, ldb n)."""
    nc = nc_of(k); f = F[k]
    if k.startswith(("posv_reg", "potrs_reg")):
        args = (a, L(lda), L(lda * n), b, L(n), L(n * nrhs), I(n), I(nrhs), I(count)) + ((info,) if k.startswith("posv") else ())
        return lambda: f(((count + 3) // 4,), (128,), args)
    if k.startswith("potrs_group"):
        g = int(k.split(",")[3].strip(" >")); sm = pitch(nc) * 8
        args = (a, L(lda), L(lda * n), I(n), b, L(n), L(n * nrhs), I(nrhs), I(count), info)
        return lambda: f((count,), (32 * g,), args, shared_mem=sm)
    if k.startswith("potrf"):
        sm = 2 * pitch(nc) * 8 if "split" in k else 0
        args = (a, L(lda), L(lda * n), I(n), I(count), info)
    else:
        sm = 2 * pitch(nc) * 8 if "split" in k else 2 * nc * (nc + 1) * 8
        args = (a, L(lda), L(lda * n), I(n), b, L(n), L(n * nrhs), I(nrhs), I(count), info)
    if sm > 48 << 10: f.max_dynamic_shared_size_bytes = sm
    return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(n, count, seed, lda=None):
    lda = lda or n
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan); s[:, :, :n] = a  # column c at s[m, c, :], lda apart
    return s
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
def same(x, y): return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())
FACT = {64: "potrf_split<double, 64, false>", 57: "potrf_split<double, 60, false>", 48: "potrf_warp<double, 48, false, false>"}
SOLVE = {64: "potrs_split<double, 64, false>", 57: "potrs_split<double, 60, false>", 48: "potrs_warp<double, 48, false>"}
def gname(n, g): return f"potrs_group<double, {(n + 3) // 4 * 4}, false, {g}>"
if PROF:
    count = 16384; info = cp.zeros(count, cp.int32)
    for n in (32,):
        a = spd(n, count, 1); b = cp.random.RandomState(2).standard_normal((count, 16, n))
        call(REG[1], a, n, n, count, info, b, 16)()
    for n in (64, 48):
        a = spd(n, count, 1); call(FACT[n], a, n, n, count, info)(); b0 = cp.random.RandomState(2).standard_normal((count, 16, n))
        for k in (SOLVE[n], gname(n, 2), gname(n, 4)): b = b0.copy(); call(k, a, n, n, count, info, b, 16)()
        if n == 48: a = spd(n, count, 1); b = b0.copy(); call("posv_warp<double, 48, false, false>", a, n, n, count, info, b, 16)()
    cp.cuda.Device().synchronize(); print("prof done"); sys.exit(0)

fails = 0
print("\n# checks: X's bits against today's kernel (lda = n + 3, matrices 3 and 5 failed: B untouched)", flush=True)
for n in (64, 57, 48, 33):
    count, lda = 37, n + 3
    a = spd(n, count, n, lda); info = cp.zeros(count, cp.int32)
    call(FACT[max(48, n)] if n != 33 else "potrf_warp<double, 48, false, false>", a, lda, n, count, info)()
    info[3] = 4; info[5] = 1
    for nrhs in (1, 3, 8, 13, 16, 21):
        b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n))
        ref = b0.copy(); call(SOLVE[max(48, n)] if n != 33 else SOLVE[48], a, lda, n, count, info, ref, nrhs)()
        for g in (1, 2, 4):
            b = b0.copy(); call(gname(max(n, 48) if n != 33 else 48, g), a, lda, n, count, info, b, nrhs)()
            ok = same(b, ref) and same(b[3], b0[3]) and same(b[5], b0[5])
            fails += not ok
            if not ok: print(f"FAIL n={n} nrhs={nrhs} G={g}", flush=True)
for nc, n in ((32, 32), (32, 29), (28, 28)):
    count = 41; a0 = spd(n, count, n, n + 2); a0[7, 5, 5] = -1.0
    for k in ("posv", "potrs"):
        b0 = cp.random.RandomState(n).standard_normal((count, 16, n)); outs = []
        for nr in (8, 16):
            a = a0.copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
            if k == "potrs": call(f"posv_reg<double, 32, {nc}, 8, false, 128>", a, n + 2, n, count, info, b0.copy(), 16)()
            call(f"{k}_reg<double, 32, {nc}, {nr}, false, 128>", a, n + 2, n, count, info, b, 16)(); outs.append((a, b))
        ok = same(outs[0][0], outs[1][0]) and same(outs[0][1], outs[1][1])
        fails += not ok
        if not ok: print(f"FAIL {k}_reg n={n} NR 16 against 8", flush=True)
print(f"# checks: {fails} failed", flush=True)

print("\n# float64 Lower, µs (median of 7, L2 flushed, the copies of A and B subtracted)", flush=True)
for count in (65536, 16384):
    for n in (32, 28):
        nc = (n + 3) // 4 * 4; a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
        b0 = cp.random.RandomState(2).standard_normal((count, 16, n)); b = cp.empty_like(b0)
        tc = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0))); row = []
        for k in ("posv", "potrs"):
            for nr in (8, 16):
                kk = call(f"{k}_reg<double, 32, {nc}, {nr}, false, 128>", a, n, n, count, info, b, 16)
                def go(): a[...] = a0; b[...] = b0; kk()
                row.append(f"{k} NR={nr} {timed(go) - tc:.1f}")
        print(f"count={count} n={n} 16 rhs: " + "; ".join(row), flush=True)
    for n in (64, 57, 48):
        a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
        fa = a0.copy(); call(FACT[n], fa, n, n, count, info)()
        for nrhs in (1, 4, 8, 16):
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
            tb = timed(lambda: b.__setitem__(Ellipsis, b0)); row = []
            for k in [SOLVE[n]] + [gname(n, g) for g in (1, 2, 4)]:
                kk = call(k, fa, n, n, count, info, b, nrhs)
                def go(): b[...] = b0; kk()
                row.append(f"{k.split('<')[0].replace('potrs_', '')}{'' if 'group' not in k else k.split(',')[3].strip(' >')} {timed(go) - tb:.1f}")
            tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
            kf = call(FACT[n], a, n, n, count, info)
            for k in ([SOLVE[n]] if n != 48 else ["posv_warp<double, 48, false, false>"]) + [gname(n, 2), gname(n, 4)]:
                if k.startswith("posv"):
                    kp = call(k, a, n, n, count, info, b, nrhs)
                    def go(): a[...] = a0; b[...] = b0; kp()
                else:
                    ks = call(k, a, n, n, count, info, b, nrhs)
                    def go(): a[...] = a0; b[...] = b0; kf(); ks()
                row.append(f"posv[{k.split('<')[0]}{'' if 'group' not in k else k.split(',')[3].strip(' >')}] {timed(go) - tab:.1f}")
            print(f"count={count} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
print("# done", flush=True)
