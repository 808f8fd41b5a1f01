# CPU model (numpy; runs here, no GPU): what truncating the TF32 split's hi instead of rounding it (session 47's
# "trunc" probe in lab/ablate.py) does to the accuracy bound, ‖LLᵀ − A‖₁ ≤ 20·n·eps·‖A‖₁, on the six input
# families. The model: a right-looking Cholesky by 32-column panels in float32 whose trailing updates are split
# products as SplitTile makes them (hi = TF32 of P, rounded as tf32_bits or truncated; the low part P − hi of which
# the tensor cores read the top 19 bits; hi·hiᵀ in one float32 accumulator, hi·loᵀ + lo·hiᵀ in another, summed),
# everything else in float32. It models the arithmetic's rounding, not chol_tiled's order of operations, so its
# ratios are for comparing the two splits, not for quoting as the kernel's. Column tf32 (one TF32 product, hi·hiᵀ) is
# the control: the model must tell it from FP32.
#   /usr/bin/python3 bench/results/h200/session52/lab/trunc-accuracy.py
import sys
import numpy as np

EPS = np.finfo(np.float32).eps / 2  # 2⁻²⁴, the unit roundoff the bound's eps is in the issue


def tf32(x, rounded):
    b = x.astype(np.float32).view(np.uint32)
    if rounded:
        b = b + np.uint32(0x1000)
    return (b & np.uint32(0xFFFFE000)).view(np.float32)


def split_product(p, q, rounded):
    """p·qᵀ as the split loop forms it, float32 result."""
    ph, qh = tf32(p, rounded), tf32(q, rounded)
    pl, ql = tf32(p - ph, False), tf32(q - qh, False)  # the tensor cores read the low part's TF32 bits
    f64 = np.float64
    hi = (ph.astype(f64) @ qh.T.astype(f64)).astype(np.float32)
    lo = (ph.astype(f64) @ ql.T.astype(f64) + pl.astype(f64) @ qh.T.astype(f64)).astype(np.float32)
    return hi + lo


def cholesky(a, mode):
    a = a.astype(np.float32).copy()
    n = a.shape[0]
    for j in range(0, n, 32):
        e = min(n, j + 32)
        d = np.linalg.cholesky(a[j:e, j:e].astype(np.float64)).astype(np.float32)
        a[j:e, j:e] = d
        if e < n:
            x = np.linalg.inv(d.astype(np.float64)).astype(np.float32)
            a[e:, j:e] = (a[e:, j:e].astype(np.float64) @ x.T.astype(np.float64)).astype(np.float32)
            p = a[e:, j:e]
            if mode == "fp32":
                upd = (p.astype(np.float64) @ p.T.astype(np.float64)).astype(np.float32)
            elif mode == "tf32":  # one TF32 product: the model's control, which must come out far worse
                h = tf32(p, True).astype(np.float64)
                upd = (h @ h.T).astype(np.float32)
            else:
                upd = split_product(p, p, mode == "round")
            a[e:, e:] -= upd
    return np.tril(a)


def families(n, rng):
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    g = rng.standard_normal((n, n))
    yield "dense", g @ g.T / n + np.eye(n)
    yield "illcond", (q * np.logspace(0, -5, n)) @ q.T
    u = rng.standard_normal((n, n // 8))
    yield "lowrank+diag", u @ u.T + 1e-3 * np.eye(n)
    s = np.logspace(-4, 4, n)
    yield "rowscaled", (g @ g.T / n + np.eye(n)) * s[:, None] * s[None, :]
    yield "diagonal", np.diag(rng.uniform(0.5, 2, n))
    yield "tridiagonal", 2.1 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)


def main():
    sizes = [int(v) for v in (sys.argv[1:] or ["256", "512", "1024"])]
    rng = np.random.default_rng(52)
    print("‖LLᵀ − A‖₁ / (n·eps·‖A‖₁), A rounded to float32 first; bound 20")
    print(f"{'n':>5} {'family':<13} {'fp32':>8} {'tf32':>8} {'round':>8} {'trunc':>8}")
    for n in sizes:
        for name, a in families(n, rng):
            a = a.astype(np.float32).astype(np.float64)
            row = []
            for mode in ("fp32", "tf32", "round", "trunc"):
                try:
                    l = cholesky(a, mode).astype(np.float64)
                except np.linalg.LinAlgError:  # a diagonal block not positive definite
                    row.append("fails")
                    continue
                row.append(f"{np.abs(l @ l.T - a).sum(0).max() / (n * EPS * np.abs(a).sum(0).max()):.3f}")
            print(f"{n:>5} {name:<13} " + " ".join(f"{v:>8}" for v in row), flush=True)


main()
