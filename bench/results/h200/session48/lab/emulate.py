# A CPU model of factor_rows (blocked.cu) and factor_quarters (quarters.cuh), lane by lane in float32 with fused
# multiply-adds (exact product and sum in float64, rounded once; float32 products are exact there, so only a sum
# that float64 itself rounds can differ from the GPU's fmaf), to check before any GPU run that the quarters' steps
# read and write the entries factor_rows does, in its order: the two must agree bit for bit, L and X, failing column
# and pivot, on the lab's inputs. rsqrtf is modelled as a correctly rounded 1/√x (the GPU's MUFU.RSQ is not, but the
# same instruction serves both kernels there). The warps of factor_quarters run one after another (0, 1, 2, 3, then
# warp 0's inverse), an order its barriers allow.
#
# Usage: python3 bench/results/h200/session48/lab/emulate.py
import numpy as np

f32 = np.float32
np.seterr(all="ignore")  # NaN and Inf inputs are cases here, not accidents
N, S, P = 32, 8, 4


def fma(a, b, c):
    return f32(np.float64(a) * np.float64(b) + np.float64(c))


def rsqrt(x):
    with np.errstate(all="ignore"):
        return f32(1.0 / np.sqrt(np.float64(x)))


def diag_block(d, c0, w, fail, dfail):
    """Step (b): the 8×8 diagonal block factored in place; returns rd, fail, dfail."""
    rd = [f32(0)] * S
    for t in range(S):
        dv = d[t][t]
        if not (dv > 0) and fail == 0 and c0 + t < w:
            fail, dfail = c0 + t + 1, dv
        sc = rsqrt(dv) if fail == 0 else f32(0)
        rd[t] = sc
        for k in range(t + 1, S):
            with np.errstate(all="ignore"):
                d[k][t] = f32(d[k][t] * sc)
        for k in range(t + 1, S):
            for u in range(t + 1, k + 1):
                d[k][u] = fma(-d[k][t], d[u][t], d[k][u])
    return rd, fail, dfail


def substitute(row, d, rd, li, c0):
    """Step (c): one lane's row in the step's columns (row holds those 8 entries)."""
    for t in range(S):
        y = row[t]
        for k in range(t):
            y = fma(-row[k], d[t][k], y)
        with np.errstate(all="ignore"):
            x = f32(y * rd[t])
            if li == c0 + t:
                x = y if np.isinf(y) else f32(y * rd[t])
        if li < c0 + t:
            x = f32(0)
        row[t] = x


def inverse(s_l, s_rd, s_x):
    """factor_rows' inverse: lane li forms column li of X."""
    for li in range(N):
        acc = [f32(0)] * N
        for k4 in range(0, N, 4):
            xs = []
            for kk in range(4):
                k = k4 + kk
                rdk = s_rd[k]
                with np.errstate(all="ignore"):
                    xk = f32(0) if k < li else (rdk if k == li else f32(-acc[k] * rdk))
                s_x[k][li] = xk
                xs.append(xk)
                for i in range(k + 1, k4 + 4):
                    acc[i] = fma(s_l[k // S][i][k % S], xk, acc[i])
            for i in range(k4 + 4, N):
                for kk in range(4):
                    acc[i] = fma(s_l[k4 // S][i][k4 % S + kk], xs[kk], acc[i])


def factor_rows(a, w):
    s_a = [list(r) for r in a]
    s_x = [[f32(0)] * N for _ in range(N)]
    s_l = np.zeros((P, N, S), f32).tolist()
    s_d = np.zeros((P, S, S), f32).tolist()
    s_rd = [f32(0)] * N
    rows = [list(s_a[li]) for li in range(N)]
    for li in range(S):
        s_d[0][li] = rows[li][:S]
    fail, dfail = 0, f32(0)
    for p in range(P):
        c0 = S * p
        d = [list(map(f32, r)) for r in s_d[p]]
        if p > 0:  # the deferred part of step p − 1's update, every lane
            for li in range(N):
                r = rows[li]
                for c in range(c0 + S, N):
                    lc = s_l[p - 1][c]
                    for q in range(S):
                        r[c] = fma(-r[c0 - S + q], lc[q], r[c])
        # every lane factors the block alike; fail is the same in all of them
        rd, fail, dfail = diag_block(d, c0, w, fail, dfail)
        for t in range(S):
            s_rd[c0 + t] = rd[t]
        for li in range(N):
            seg = rows[li][c0:c0 + S]
            substitute(seg, d, rd, li, c0)
            rows[li][c0:c0 + S] = seg
            s_l[p][li] = list(seg)
            for t in range(S):
                if c0 + t <= li:
                    s_a[li][c0 + t] = seg[t]
        if p + 1 < P:
            for li in range(N):
                r = rows[li]
                for c in range(c0 + S, c0 + 2 * S):
                    lc = s_l[p][c]
                    for q in range(S):
                        r[c] = fma(-r[c0 + q], lc[q], r[c])
            for li in range(c0 + S, c0 + 2 * S):
                s_d[p + 1][li - c0 - S] = rows[li][c0 + S:c0 + 2 * S]
    inverse(s_l, s_rd, s_x)
    return s_a, s_x, fail, dfail


def factor_quarters(a, w):
    s_a = [list(r) for r in a]
    s_x = [[f32(0)] * N for _ in range(N)]
    s_l = np.zeros((P, N, S), f32).tolist()
    s_d = np.zeros((P, S, S), f32).tolist()
    s_rd = [f32(0)] * N
    s_fails, s_dfails = [0] * P, [f32(0)] * P
    for q in range(P):  # warp q, after the warps before it
        c0 = S * q
        rows = [[s_a[li][c0 + t] for t in range(S)] for li in range(N)]
        for p in range(q):
            for li in range(N):
                lr = s_l[p][li]
                for t in range(S):
                    lc = s_l[p][c0 + t]
                    for k in range(S):
                        rows[li][t] = fma(-lr[k], lc[k], rows[li][t])
        fail = s_fails[q - 1] if q > 0 else 0
        dfail = s_dfails[q - 1] if q > 0 else f32(0)
        for li in range(c0, c0 + S):
            s_d[q][li - c0] = list(rows[li])
        d = [list(map(f32, r)) for r in s_d[q]]
        rd, fail, dfail = diag_block(d, c0, w, fail, dfail)
        for t in range(S):
            s_rd[c0 + t] = rd[t]
        s_fails[q], s_dfails[q] = fail, dfail
        for li in range(N):
            substitute(rows[li], d, rd, li, c0)
            s_l[q][li] = list(rows[li])
            for t in range(S):
                if c0 + t <= li:
                    s_a[li][c0 + t] = rows[li][t]
    inverse(s_l, s_rd, s_x)
    return s_a, s_x, s_fails[P - 1], s_dfails[P - 1]


def bits(m):
    return np.array(m, f32).view(np.uint32)


rng = np.random.default_rng(48)


def spd():
    g = rng.standard_normal((N, N))
    return g @ g.T / N + np.eye(N)


cases = [(f"spd w={w}", w, spd()) for w in (32, 31, 17, 8, 1)]
for k in (0, 7, 8, 20, 31):
    B = spd(); B[k, k] = -5.0; cases.append((f"neg{k}", 32, B))
B = spd(); B[5, 5] = np.nan; cases.append(("nan5", 32, B))
B = spd(); B[26, 26] = np.inf; cases.append(("inf26", 32, B))
B = spd(); B[3, 0] = 40.0; cases.append(("indef", 32, B))
bad = 0
for name, w, A in cases:
    A = A.copy(); A[w:, :] = 0; A[:, w:] = 0
    a = [[f32(1.0) if r == c else f32(0) for c in range(N)] for r in range(N)]
    for r in range(w):
        for c in range(r + 1):
            a[r][c] = f32(A[r, c])
    ra, rx, rf, rdf = factor_rows(a, w)
    qa, qx, qf, qdf = factor_quarters(a, w)
    same = (rf == qf and np.array_equal(bits([rdf]), bits([qdf])) and np.array_equal(bits(ra), bits(qa))
            and np.array_equal(bits(rx), bits(qx)))
    lim = rf - 1 if rf else w
    L = np.tril(np.array(ra, np.float64))[:lim, :lim]
    lower = np.array(a, np.float64)[:lim, :lim]  # A's lower triangle, as the kernels read it
    err = np.abs(np.tril(L @ L.T) - lower).max() if lim else 0.0
    ok = same and (lim == 0 or not np.isfinite(lower).all() or err < 1e-5 * np.abs(lower).max())
    bad += not ok
    print(f"{name:9s} fail {rf:2d} (quarters {qf:2d})  bits {'equal' if same else 'DIFFER'}  |LLᵀ − A| on the leading {lim}: {err:.1e}"
          + ("" if ok else "  BAD"))
print("BAD" if bad else "factor_quarters' model agrees with factor_rows' bit for bit on every input")
raise SystemExit(1 if bad else 0)
