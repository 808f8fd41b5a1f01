# Session 45 lab 1: why posv_split Lower runs 8 % behind Upper (session 44, call 6: n = 48, 16,384 systems, 1 rhs
# 299.8 µs against 275.1, 16 rhs 408.4 against 386.0), float64. The two differ only in how the packed tile is filled
# from A (split_fill) and drained back to A (split_body's store loop).
#  Variants of warp.cu:
#   new     HEAD.
#   rot     Lower's fill and drain rotated: lane l moves the row r ≡ l (mod 32) of the column's 32 (r = c + ((l − c) & 31)),
#           so each half-warp's 8-byte accesses of the packed tile fall in 16 different bank pairs (triangular numbers
#           mod 16 over 16 consecutive rows from a multiple of 32 are a permutation). Same global addresses per
#           instruction, same values to the same places: the same bits.
#   pf      posv_split prefetches B's columns into L2 (prefetch.global.L2) before its fill, so the solve's loads hit L2.
#   rotpf   both.
#   ufill, udrain, uu: diagnostics, Lower with Upper's fill, Upper's drain, both (on symmetric A, ufill reads the same
#           values; udrain writes Lᵀ above the diagonal: timing only).
#  1. Registers and local memory; bits of rot, pf, rotpf (and ufill on symmetric A) against new: posv_split both
#     triangles, potrs_split and potrf_split Lower, lda = n + 3, ldb = n + 1, failing and NaN matrices.
#  2. Times, µs, 16,384 and 65,536 systems (and 1,024 and 4,096 at n = 45, 48 against posv_warp), L2 flushed, the copies of A and B subtracted, each case's arms timed in
#     order and again in reverse (both medians printed).
import cupy as cp, numpy as np, ctypes, os
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
NEW = rd("internal/gpu/potrf/warp.cu")
FILL = """            const int r = c + lane;
            if (r < n) copy_async(tile + tri_at(r, c), am + (at + r));"""
DRAIN = """                const int r = c + lane + 32 * h;
                if (r < n && (c < last || (r == c && c == fail - 1))) am[at + r] = tile[tri_at(r, c)];"""
START = """    split_fill<T, UPPER>(tile, am, lda, n, lane);
    __syncwarp();
    int fail = 0;"""
UFILL = """        if constexpr (UPPER) {
            // U(0…c, c) into tile row c."""
UDRAIN = """        if constexpr (UPPER) {
            // Column c of U: U(r, c) = L(c, r), rows r ≤ c, two per lane."""
for s in (FILL, DRAIN, START, UFILL, UDRAIN): assert NEW.count(s) == 1, s
PF = """    if constexpr (SOLVE) { // B's lines into L2 while the factorization runs
        const T* const bp = b + m * bstride;
        constexpr int NL = NC / 16 + 1; // elements 0, 16, 32, … and n − 1 touch every line of a column
#pragma unroll 1
        for (int q = lane; q < nrhs * NL; q += 32) {
            const int col = q / NL, e = (q % NL) * 16 < n ? (q % NL) * 16 : n - 1;
            asm volatile("prefetch.global.L2 [%0];" ::"l"(bp + e + (long long)col * ldb));
        }
    }
"""
def rot(s): return s.replace(FILL, FILL.replace("c + lane;", "c + ((lane - c) & 31);")).replace(
    DRAIN, DRAIN.replace("c + lane + 32 * h;", "c + ((lane - c) & 31) + 32 * h;"))
def pf(s): return s.replace(START, PF + START)
SRC = {"new": NEW, "rot": rot(NEW), "pf": pf(NEW), "rotpf": pf(rot(NEW)),
       "ufill": NEW.replace(UFILL, UFILL.replace("(UPPER)", "(true)")),
       "udrain": NEW.replace(UDRAIN, UDRAIN.replace("(UPPER)", "(true)")),
       "uu": NEW.replace(UFILL, UFILL.replace("(UPPER)", "(true)")).replace(UDRAIN, UDRAIN.replace("(UPPER)", "(true)"))}
UP = ("false", "true")
PS = [f"posv_split<double, {nc}, {u}>" for nc in (48, 64) for u in UP]
NAMES = {"new": PS + ["potrs_split<double, 48, false>", "potrs_split<double, 64, false>", "potrf_split<double, 64, false>",
                      "posv_warp<double, 48, false, false>", "posv_warp<double, 48, true, false>"],
         "rot": PS + ["potrs_split<double, 48, false>", "potrs_split<double, 64, false>", "potrf_split<double, 64, false>"],
         "pf": PS, "rotpf": PS, "ufill": [PS[0]], "udrain": [PS[0]], "uu": [PS[0]]}
def build(v):
    ns = NAMES[v]; prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"warp.cu", 0, None, None)
    for k in ns: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return v, None, log.value.decode()[-6000:]
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab45-{v}.cubin"; open(path, "wb").write(buf.raw)
    low = {}
    for k in ns:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    return v, path, low
with ThreadPoolExecutor(len(SRC)) as ex: res = list(ex.map(build, SRC))
F = {}
for v, path, low in res:
    if path is None: print(v, low, flush=True); raise SystemExit(1)
    m = cp.RawModule(path=path)
    for k, lk in low.items():
        f = F[v + ":" + k] = m.get_function(lk)
        print(f"{v}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def call(v, k, a, lda, n, count, info, b=None, nrhs=0, ldb=None):
    nc = int(k.split(",")[1]); f = F[v + ":" + k]; ldb = ldb or n
    sm = 2 * pitch(nc) * 8 if "split" in k else 2 * nc * (nc + 1) * 8
    if k.startswith("potrf"): args = (a, L(lda), L(lda * n), I(n), I(count), info)
    else: args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs), I(count), info)
    if sm > 48 << 10: f.max_dynamic_shared_size_bytes = sm
    return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(n, count, seed, lda=None):
    lda = lda or n
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan); s[:, :, :n] = a
    return s
def same(x, y): return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())

fails = checks = 0
print("\n# bits against new (lda = n + 3, ldb = n + 1; failing, NaN and tiny-pivot matrices)", flush=True)
for n in (45, 47, 48, 61, 63, 64):
    nc = (n + 3) // 4 * 4; count, lda = 29, n + 3
    for u in UP:
        a0 = spd(n, count, n, lda); a0[4, 7, 7] = -2.0; a0[6, 0, 0] = cp.nan; a0[9, n - 1, n - 1] = 1e-300
        a0[11, n - 1, 3] = cp.nan
        for nrhs in (1, 4, 9, 16, 17):
            b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1))
            k = f"posv_split<double, {nc}, {u}>"
            outs = {}
            for v in ("new", "rot", "pf", "rotpf"):
                a = a0.copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
                call(v, k, a, lda, n, count, info, b, nrhs, n + 1)(); outs[v] = (a, b, info)
            for v in ("rot", "pf", "rotpf"):
                ok = same(outs["new"][0], outs[v][0]) and same(outs["new"][1], outs[v][1]) and bool((outs["new"][2] == outs[v][2]).all())
                checks += 1; fails += not ok
                if not ok: print(f"FAIL {v} {k} n={n} nrhs={nrhs}", flush=True)
            if u == "false":
                fa = outs["new"][0]; finfo = outs["new"][2]
                for v in ("new", "rot"):
                    b = b0.copy(); call(v, f"potrs_split<double, {nc}, false>", fa, lda, n, count, finfo, b, nrhs, n + 1)()
                    outs["s" + v] = b
                ok = same(outs["snew"], outs["srot"]); checks += 1; fails += not ok
                if not ok: print(f"FAIL rot potrs_split n={n} nrhs={nrhs}", flush=True)
        if u == "false" and nc == 64:
            outs = {}
            for v in ("new", "rot"):
                a = a0.copy(); info = cp.zeros(count, cp.int32); call(v, "potrf_split<double, 64, false>", a, lda, n, count, info)()
                outs[v] = (a, info)
            ok = same(outs["new"][0], outs["rot"][0]) and bool((outs["new"][1] == outs["rot"][1]).all()); checks += 1; fails += not ok
            if not ok: print(f"FAIL rot potrf_split n={n}", flush=True)
# ufill on symmetric A (lda = n): Upper's fill reads the same values
for n in (45, 48):
    count = 29; a0 = spd(n, count, 5); a0[4, 7, 7] = -2.0; b0 = cp.random.RandomState(3).standard_normal((count, 16, n))
    outs = []
    for v in ("new", "ufill"):
        a = a0.copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
        call(v, "posv_split<double, 48, false>", a, n, n, count, info, b, 16)(); outs.append((a, b, info))
    ok = same(outs[0][0], outs[1][0]) and same(outs[0][1], outs[1][1]); checks += 1; fails += not ok
    if not ok: print(f"FAIL ufill n={n}", flush=True)
print(f"# bits: {fails} of {checks} failed", flush=True)

flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
print("\n# µs (median of 7, L2 flushed, copies of A and B subtracted); each arm: forward order / reverse order", flush=True)
def case(count, n, u, nrhs, arms):
    a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
    b0 = cp.random.RandomState(2).standard_normal((count, max(nrhs, 1), n)); b = cp.empty_like(b0)
    tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
    ks = {}
    for tag, v, k in arms:
        if k.startswith("potrf"): ks[tag] = call(v, k, a, n, n, count, info)
        else: ks[tag] = call(v, k, a, n, n, count, info, b, nrhs)
    got = {t: [] for t, _, _ in arms}
    for order in (list(ks), list(ks)[::-1]):
        for t in order:
            def go(): a[...] = a0; b[...] = b0; ks[t]()
            got[t].append(timed(go) - tab)
    print(f"count={count} {'U' if u == 'true' else 'L'} n={n} nrhs={nrhs}: " +
          "; ".join(f"{t} {x[0]:.1f}/{x[1]:.1f}" for t, x in got.items()), flush=True)
    del a0, a, b0, b
for count in (16384, 65536):
    for nrhs in (1, 4, 16):
        arms = [("posv_warp", "new", "posv_warp<double, 48, false, false>")] + \
            [(v, v, "posv_split<double, 48, false>") for v in ("new", "rot", "pf", "rotpf")]
        if nrhs != 4: arms += [(v, v, "posv_split<double, 48, false>") for v in ("ufill", "udrain", "uu")]
        case(count, 48, "false", nrhs, arms)
        case(count, 48, "true", nrhs, [(v, v, "posv_split<double, 48, true>") for v in ("new", "rot", "pf", "rotpf")])
    for nrhs in (4, 16):
        case(count, 45, "false", nrhs, [("posv_warp", "new", "posv_warp<double, 48, false, false>")] +
             [(v, v, "posv_split<double, 48, false>") for v in ("new", "rot", "rotpf")])
    for nrhs in (1, 4, 16):
        case(count, 64, "false", nrhs, [(v, v, "posv_split<double, 64, false>") for v in ("new", "rot", "pf", "rotpf")])
    case(count, 64, "false", 0, [(v, v, "potrf_split<double, 64, false>") for v in ("new", "rot")])
    for n in (48, 64):
        for nrhs in (1, 16):
            case(count, n, "false", nrhs, [(v, v, f"potrs_split<double, {n}, false>") for v in ("new", "rot")])
# Below 16,384 systems (posv.go's posvSplit takes posv_split at n = 45…48 only from there): posv_warp against
# posv_split, both triangles.
for count in (1024, 4096):
    for n in (45, 48):
        for u in UP:
            for nrhs in (1, 4, 16):
                case(count, n, u, nrhs, [("posv_warp", "new", f"posv_warp<double, 48, {u}, false>")] +
                     [(v, v, f"posv_split<double, 48, {u}>") for v in ("new", "rot")])
print("# done", flush=True)
