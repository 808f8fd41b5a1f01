"""Session 46: potrf_cta with steps of NB = 8 columns, each thread
factoring the step's diagonal block by itself, against HEAD's panels of 16
whose diagonal block one warp factors by shuffles (head-cta.cu.xz). Call 1
ran a first form of this lab: "s1" (s1-cta.cu.xz) loads each step's row
from global memory a step ahead. The rest is prepared for a later session
(call 2 was not lent a machine): "new" (new-cta.cu.xz, cta-steps.patch's
cta.cu) copies A's whole lower triangle into the trapezoid by cp.async
first; "hs" is HEAD with that staging alone (its arithmetic unchanged, so
its bits must equal HEAD's); "noupd" is new without the update of step 1
(wrong results: a diagnostic, timed only); "stamp" is new with clock64
stamps of each step's phases by lane 0 of every warp of block 0. Bits are
not expected to match HEAD's (other operations); each result is checked
against float64 (residual, info, the other triangle and the padding
untouched), and info against HEAD's. Call 1's form had two bugs in its
check (complex Upper's reference conjugated; a NaN residual passing),
fixed here."""
import os
import sys

sys.path.insert(0, "bench/lab")
import cupy as cp
import numpy as np
import warplab as wl

HERE = "bench/results/h200/session46/lab/"
CTA = '\n#line 1 "cta.cu"\n'
TN = {np.float32: "float", np.float64: "double", np.complex64: "cfloat", np.complex128: "cdouble"}


def name(dt, np_, nb, upper):
    return f"potrf_cta<{TN[dt]}, {np_}, {nb}, {'true' if upper else 'false'}>"


def bucket(n):
    return max(64, (n + 31) // 32 * 32)


def nb_of(dt, tag):
    if tag in ("head", "hs"):
        return 8 if dt == np.complex128 else 16
    return 4 if dt == np.complex128 else 8


def trap(np_, nb):
    k = np_ // nb
    return nb * (k * np_ - nb * (k * (k - 1) // 2))


CASES = {  # dtype: buckets compiled
    np.float32: [64, 96, 128, 160, 224, 256],
    np.float64: [128, 224],
    np.complex64: [128],
    np.complex128: [128, 160],
}
names = {"head": [], "hs": [], "s1": [], "new": [], "noupd": [], "u2": []}
for tag in names:
    for dt, nps in CASES.items():
        for p in nps:
            for up in (False, True):
                names[tag].append(name(dt, p, nb_of(dt, tag), up))
parts = lambda l: [l[i::6] for i in range(6)]
src_new = wl.read_xz(HERE + "new-cta.cu.xz")  # cta-steps.patch's cta.cu
src_s1 = wl.read_xz(HERE + "s1-cta.cu.xz")
src_head = wl.read_xz(HERE + "head-cta.cu.xz")
upd = "        if (t >= j0 && row) {\n#pragma unroll 1\n            for (int K = 0; K < J; ++K) {"
assert upd in src_new
src_noupd = src_new.replace(upd, upd.replace("row) {", "row && n < 0) {"))
# hs: HEAD's cta_factor with the working tree's staging in place of its loads a panel ahead.
stage = src_new[src_new.index("    // 0. Row t of A"):src_new.index("        // 1. r −=")].replace("steps", "panels")
a0 = src_head.index("    T r[NB], nx[NB];")
a1 = src_head.index("load_panel<T, NB, UPPER>(nx, a, base, step, t, j0 + NB, n, vec);\n") + len(
    "load_panel<T, NB, UPPER>(nx, a, base, step, t, j0 + NB, n, vec);\n")
src_hs = src_head[:a0] + stage + src_head[a1:]
tail = "#pragma unroll\n        for (int c = 0; c < NB; ++c) r[c] = nx[c];\n    }\n    return fail;\n}"
assert tail in src_hs
src_hs = src_hs.replace(tail, "    }\n    wait_groups<0>();\n    return fail;\n}", 1)
src_stamp = "__device__ int lab_stamps[8][32][8];\n" + src_new
for mark, p in [("        // 1. r −= L(t, 0:j0)", 0), ("        // 2. The step's diagonal block to every thread.", 1),
                ("        // 3. Every thread factors", 2), ("        // 4. The step's columns to the trapezoid", 3),
                ("        if (fail != 0 || J + 1 >= steps) break;", 4)]:
    assert src_stamp.count(mark) == 1, mark
    src_stamp = src_stamp.replace(mark, f"        if (blockIdx.x == 0 && (t & 31) == 0 && J < 32) lab_stamps[t >> 5][J][{p}] = "
                                        f"(int)(clock64() - st0);\n" + mark)
mark = "    const int t = threadIdx.x; // the row this thread owns\n"
assert src_stamp.count(mark) == 1
src_stamp = src_stamp.replace(mark, mark + "    const long long st0 = clock64();\n")
src_pairs = src_new + '\n#line 1 "pairs.cu"\n' + wl.read(HERE + "pairs.cu")
# u2: new with the update's loop over block columns unrolled by 2 (the next block's loads beside this one's products).
src_u2 = src_new.replace(upd, upd.replace("#pragma unroll 1", "#pragma unroll 2"))
assert src_u2 != src_new
srcs = {"head": src_head, "hs": src_hs, "s1": src_s1, "new": src_new, "noupd": src_noupd, "stamp": src_stamp,
        "pairs": src_pairs, "u2": src_u2}
names["stamp"] = [name(np.float32, p, 8, u) for p in (128, 256) for u in (False, True)]
PAIRS = {np.float32: [64, 96, 128, 160, 224, 256], np.float64: [128]}  # pairs' buckets
names["pairs"] = [name(dt, p, 8, u).replace("potrf_cta<", "potrf_cta_pairs<") for dt, ps in PAIRS.items() for p in ps
                  for u in (False, True)]
parts = lambda l: [l[i::3] for i in range(3)]
# cp.async groups (cta-steps.patch adds them to scalar.cuh), where the tree's prelude lacks them.
GROUPS = """
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_groups() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }
"""
if "commit_copies" in wl.prelude():
    GROUPS = ""
K = wl.build({k: GROUPS + CTA + v for k, v in srcs.items()}, {k: parts(v) for k, v in names.items()})


def has(tag, dt, n):
    return tag != "pairs" or bucket(n) in PAIRS.get(dt, [])


def launch(tag, dt, n, upper, a, lda, count, info, vec):
    nb, p = nb_of(dt, tag), bucket(n)
    kname = name(dt, p, nb, upper)
    threads = p
    if tag == "pairs":
        kname, threads = kname.replace("potrf_cta<", "potrf_cta_pairs<"), 2 * p
    f = K.fn[(tag, kname)]
    smem = trap(p, nb) * np.dtype(dt).itemsize
    if smem > 48 << 10:
        f.max_dynamic_shared_size_bytes = smem
    args = (a, wl.L(lda), wl.L(lda * n), wl.I(n), info, wl.I(vec))
    return lambda: f((count,), (threads,), args, shared_mem=smem)


def make(dt, n, count, lda, seed, ill=True):
    rs = cp.random.RandomState(seed)
    cplx = np.dtype(dt).kind == "c"
    y = rs.standard_normal((count, n, n))
    if cplx:
        y = y + 1j * rs.standard_normal((count, n, n))
    a = cp.matmul(y.conj().transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    # a few ill-conditioned ones: a low-rank part plus a small diagonal
    k = count // 8 if ill else 0
    if k:
        z = rs.standard_normal((k, n, 3)) + (1j * rs.standard_normal((k, n, 3)) if cplx else 0)
        a[:k] = cp.matmul(z, z.conj().transpose(0, 2, 1)) + 1e-1 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan, dtype=cp.complex128 if cplx else cp.float64)
    s[:, :, :n] = a  # s[m, c, r] = A(r, c), column-major, rows ≥ n NaN
    return s


def spoil(s, n):
    s[4, 7, 7] = -2.0
    s[6, 0, 0] = cp.nan
    s[11, 3, n - 1] = cp.nan  # A(n−1, 3) and A(3, n−1): both triangles
    s[11, n - 1, 3] = cp.nan
    s[13, n - 2, n - 2] = -1.0
    s[15, 20, 20] = cp.inf
    return s


def check(dt, n, count, lda, upper, seed, spoilt):
    s = make(dt, n, count, lda, seed)
    if spoilt:
        s = spoil(s, n)
    a0 = s.astype(dt)
    res = {}
    vec = 1 if (upper and lda % (16 // np.dtype(dt).itemsize) == 0) else 0
    for tag in [x for x in ("head", "hs", "s1", "new", "pairs", "u2") if has(x, dt, n)]:
        a = a0.copy()
        info = cp.full(count, -7, dtype=cp.int32)
        launch(tag, dt, n, upper, a, lda, count, info, vec)()
        cp.cuda.Device().synchronize()
        res[tag] = (a, info)
    ok = True
    if not (wl.same(res["hs"][0], res["head"][0]) and (res["hs"][1] == res["head"][1]).all()):
        print("  HS DIFFERS FROM HEAD (bits or info)")
        ok = False
    if not (wl.same(res["u2"][0], res["new"][0]) and (res["u2"][1] == res["new"][1]).all()):
        print("  U2 DIFFERS FROM NEW (bits or info)")  # the same operations in the same order
        ok = False
    for tag in [x for x in ("new", "pairs") if x in res]:
        ok &= verify(tag, res[tag], res["head"][1], s, a0, n, lda, upper, dt)
    print(f"{TN[dt]} {'U' if upper else 'L'} n={n} lda={lda} count={count} spoilt={spoilt}: "
          f"{int(cp.asnumpy(res['head'][1] != 0).sum())} failed, {'ok' if ok else 'BAD'}", flush=True)
    return ok


def verify(tag, res, head_info, s, a0, n, lda, upper, dt):
    """res's factor against float64 and HEAD's info; prints what is wrong."""
    a, info = res
    ok = True
    if not (info == head_info).all():
        print(f"  {tag}: INFO DIFFERS {cp.nonzero(info != head_info)[0][:8]} {info[:16]} head {head_info[:16]}")
        ok = False
    # untouched: the other triangle and the padding rows
    r = cp.arange(lda)[None, :]
    c = cp.arange(n)[:, None]
    other = (r < c) if not upper else (r > c)
    other = other | (r >= n)
    if not wl.same(a[:, other], a0[:, other]):
        print(f"  {tag}: OTHER TRIANGLE OR PADDING WRITTEN")
        ok = False
    tri = (r <= c) if not upper else (r >= c)  # the triangle read: s[m, c, r] = A(r, c)
    tri = tri & (r < n)
    finite = cp.isfinite(s[:, tri]).all(axis=1)
    good = cp.asnumpy((info == 0) & finite)
    eps = np.finfo(np.dtype(dt).type(0).real.dtype).eps
    m = a[:, :, :n].astype(cp.complex128 if np.dtype(dt).kind == "c" else cp.float64)
    if upper:
        L = cp.tril(m.conj())  # m[c, r] = U(r, c); Uᴴ(c, r) = conj(U(r, c)) → L[c, r]
    else:
        L = cp.tril(m.transpose(0, 2, 1))
    A = s[:, :, :n].transpose(0, 2, 1)  # A[r][c] = A(r, c)
    if upper:
        A = cp.triu(A) + cp.triu(A, 1).conj().transpose(0, 2, 1)
    else:
        A = cp.tril(A) + cp.tril(A, -1).conj().transpose(0, 2, 1)
    R = cp.matmul(L, L.conj().transpose(0, 2, 1)) - A
    nr = cp.abs(R).sum(axis=1).max(axis=1) / (cp.abs(A).sum(axis=1).max(axis=1) * n * eps)
    nr = cp.asnumpy(nr)
    if not good.any():  # every matrix failed or was spoilt: the residual check below would check nothing
        print(f"  {tag}: NO MATRIX FACTORED (info {info[:16]})")
        return False
    worst = float(np.max(nr[good]))
    dpos = cp.asnumpy((cp.real(cp.diagonal(L, axis1=1, axis2=2)) > 0).all(axis=1))
    if not worst <= 20 or not dpos[good].all():  # a NaN residual fails too
        print(f"  {tag}: RESIDUAL {worst:.2f} n·eps (bound 20) or diagonal not positive")
        ok = False
    print(f"  {tag}: worst {worst:.3f} n·eps")
    return ok


allok = True
for dt, ns in [(np.float32, [33, 40, 64, 65, 71, 96, 97, 128, 129, 160, 200, 224, 225, 256]),
               (np.float64, [97, 128, 200, 224]), (np.complex64, [100, 128]), (np.complex128, [100, 128, 160])]:
    for n in ns:
        for upper in (False, True):
            for lda in (n, n + 3, (n + 7) // 8 * 8 + 8):
                if bucket(n) not in CASES[dt]:
                    continue
                allok &= check(dt, n, 32, lda, upper, n * 7 + lda, spoilt=n >= 21)
        allok &= check(dt, n, 64, n, True, 5, spoilt=False)
print("ALL OK" if allok else "SOME BAD", flush=True)

print("\ntimes (µs, median of 7, L2 flushed): head / hs / s1 / new / noupd (new without its update: wrong, a diagnostic) / pairs / u2", flush=True)
for dt, n, upper, counts in [(np.float32, 128, True, [1, 256, 1024, 4096, 16384]),
                             (np.float32, 128, False, [1, 256, 4096]),
                             (np.float32, 96, True, [1, 256, 4096]),
                             (np.float32, 64, True, [1, 1024]),
                             (np.float32, 160, True, [1, 256]),
                             (np.float32, 256, True, [1, 64, 256, 1024]),
                             (np.float32, 200, True, [1, 256]),
                             (np.float64, 128, False, [1, 256, 4096]),
                             (np.float64, 224, False, [1, 256]),
                             (np.complex64, 128, False, [1, 256, 4096]),
                             (np.complex128, 128, False, [1, 256]),
                             (np.complex128, 160, False, [1, 256])]:
    for count in counts:
        a0 = make(dt, n, count, n, 3, ill=False).astype(dt)
        info = cp.zeros(count, dtype=cp.int32)
        ts = {}
        vec = 1 if (upper and n % (16 // np.dtype(dt).itemsize) == 0) else 0
        for tag in [x for x in ("head", "hs", "s1", "new", "noupd", "pairs", "u2") if has(x, dt, n)]:
            a = a0.copy()
            ts[tag] = wl.timed(launch(tag, dt, n, upper, a, n, count, info, vec), reps=9,
                               setup=lambda: cp.copyto(a, a0))  # each run factors A, not the last run's L
            if tag != "noupd" and int((info != 0).sum()):
                print(f"  {tag}: a timed matrix failed")
        print(f"{TN[dt]} {'U' if upper else 'L'} n={n} count={count}: {ts['head']:.2f} / {ts['hs']:.2f} / {ts['s1']:.2f} / "
              f"{ts['new']:.2f} / {ts['noupd']:.2f} / {ts['pairs'] if 'pairs' in ts else float('nan'):.2f} / {ts['u2']:.2f} "
              f"(head/new {ts['head'] / ts['new']:.2f}×)", flush=True)


print("\nstamp: clock64 cycles of each step's phases in block 0 (lane 0 of each warp; read = wait and read of the"
      " step's row, upd = update, bar1 = barrier, fac = factor and solve, out = trapezoid, global stores, barrier)",
      flush=True)
for n, upper, count in [(128, True, 1), (128, True, 256), (128, False, 1), (256, True, 1), (256, True, 64)]:
    dt = np.float32
    a0 = make(dt, n, count, n, 3, ill=False).astype(dt)
    info = cp.zeros(count, dtype=cp.int32)
    a = a0.copy()
    f = launch("stamp", dt, n, upper, a, n, count, info, 1 if upper else 0)
    wl.timed(f, reps=3, setup=lambda: cp.copyto(a, a0))  # the last run's stamps, after an L2 flush
    st = None
    for tag_mod in [m for m in K.modules if m[0] == "stamp"]:
        try:
            st = cp.ndarray((8, 32, 8), dtype=cp.int32, memptr=tag_mod[1].get_global("lab_stamps"))
            if int(st[0, 0, 4]) != 0:
                break
        except Exception:
            st = None
    if st is None:
        print("  no stamps")
        continue
    st = cp.asnumpy(st)
    steps = (n + 7) // 8
    print(f"float {'U' if upper else 'L'} n={n} count={count}: end of last step {st[:, steps - 1, 4].max()} cycles")
    for w in range(bucket(n) // 32):
        prev = 0
        rows = []
        for J in range(steps):
            ph = st[w, J, :5]
            d = [ph[0] - prev, ph[1] - ph[0], ph[2] - ph[1], ph[3] - ph[2], ph[4] - ph[3]]
            prev = ph[4]
            rows.append(d)
        tot = np.sum(rows, axis=0)
        print(f"  warp {w}: totals read {tot[0]} upd {tot[1]} bar1 {tot[2]} fac {tot[3]} out {tot[4]}; per step "
              + " ".join("/".join(str(int(x)) for x in r) for r in rows[:: max(1, steps // 6)]))
    st[:] = 0
