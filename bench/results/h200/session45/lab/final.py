# Session 45 lab 6, the first on bench/lab/warplab.py: the committed warp.cu against session 44's (lab/head-warp.cu.xz,
# faf7574), float64, after the comments changed that calls 5 and 6 did not run.
#  1. Registers and local memory; SASS of potrf_split and potrs_split (must be session 44's) and of posv_split.
#  2. Bits of posv_split, both triangles, against session 44's: n = NC − 3, NC − 1, NC of every bucket and 33, lda = n + 3,
#     ldb = n + 1, failing, NaN, infinite and tiny-pivot matrices, 1…33 right-hand sides.
#  3. Times, µs, posv_split Lower and Upper n = 48, 16,384 and 65,536 systems, 1, 4, 16 rhs (forward/reverse order).
import sys
sys.path.insert(0, "bench/lab")
import cupy as cp
import warplab as wl

NCS = (36, 40, 44, 48, 52, 56, 60, 64)
UP = ("false", "true")
parts = [[f"posv_split<double, {nc}, {u}>" for nc in NCS[i:i + 2] for u in UP] for i in range(0, 8, 2)] + \
    [[f"potrs_split<double, {nc}, {u}>" for nc in NCS[i:i + 4] for u in UP] for i in (0, 4)] + \
    [[f"potrf_split<double, {nc}, {u}>" for nc in (60, 64) for u in UP]]
K = wl.build({"s44": wl.read_xz("bench/results/h200/session45/lab/head-warp.cu.xz"),
              "final": wl.read("internal/gpu/potrf/warp.cu")}, {"s44": parts, "final": parts})
print("\n# SASS, final against session 44's (whitespace collapsed)", flush=True)
for part in parts:
    for name in part:
        print(f"{name}: {'same' if K.same_sass('s44', 'final', name) else 'DIFFERENT'}", flush=True)

fails = checks = 0
print("\n# bits of posv_split, final against session 44's", flush=True)
for nc in NCS:
    for n in sorted({nc - 3, nc - 1, nc} | ({33} if nc == 36 else set())):
        count, lda = 29, n + 3
        for u in UP:
            a0 = wl.spoil(wl.spd(n, count, n, lda), n)
            for nrhs in (1, 2, 3, 4, 7, 8, 9, 12, 16, 17, 33):
                b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1))
                outs = {}
                for v in ("s44", "final"):
                    a, b, info = a0.copy(), b0.copy(), cp.zeros(count, cp.int32)
                    K.launch(v, f"posv_split<double, {nc}, {u}>", a, lda, n, count, info, b, nrhs, n + 1)()
                    outs[v] = (a, b, info)
                (ha, hb, hi), (fa, fb, fi) = outs["s44"], outs["final"]
                ok = wl.same(ha, fa) and wl.same(hb, fb) and bool((hi == fi).all())
                checks += 1
                fails += not ok
                if not ok:
                    print(f"FAIL n={n} upper={u} nrhs={nrhs}", flush=True)
print(f"# bits: {fails} of {checks} failed", flush=True)

print("\n# µs (median of 7, L2 flushed, copies of A and B subtracted); forward / reverse order", flush=True)
for count in (16384, 65536):
    for u in UP:
        for nrhs in (1, 4, 16):
            n = 48
            a0 = wl.spd(n, count, 1)
            a, info = cp.empty_like(a0), cp.zeros(count, cp.int32)
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n))
            b = cp.empty_like(b0)
            copies = wl.timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
            got = {}
            for order in (("s44", "final"), ("final", "s44")):
                for v in order:
                    k = K.launch(v, f"posv_split<double, 48, {u}>", a, n, n, count, info, b, nrhs)
                    got.setdefault(v, []).append(wl.timed(lambda: (a.__setitem__(Ellipsis, a0),
                                                                  b.__setitem__(Ellipsis, b0), k())) - copies)
            print(f"count={count} {'U' if u == 'true' else 'L'} n=48 nrhs={nrhs}: " +
                  "; ".join(f"{v} {x[0]:.1f}/{x[1]:.1f}" for v, x in got.items()), flush=True)
            del a0, a, b0, b
print("# done", flush=True)
