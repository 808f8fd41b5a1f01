# From prof21.py's stamps: the time a tile product takes in a task's loop, p, solved per task from
# loop end = max_k (max(start, ready_k) + (c − k)·p), ready_k the time both of step k's tiles were released
# (the producing task's last stamp; a diagonal task's deferred tile at its factor's start).
import numpy as np, sys
def tasks(n, count=1, TS=32):
    nt = (n + TS - 1) // TS
    out = []
    for g in range(nt):
        size = 1 if g == 0 else nt - g
        for pos in range(size):
            diag = pos == 0
            j = g if diag else g - 1
            i = g if diag else g + pos
            for m in range(count):
                out.append((i, j, diag, m))
    return nt, out
for path in sys.argv[1:]:
    spec = path.split("st_")[1].split(".npy")[0].split("x")
    n, count = int(spec[2]), int(spec[3])
    st = np.load(path).astype(float) / 1e3
    nt, T = tasks(n, count)
    assert len(T) == len(st), (len(T), len(st))
    end = {}
    for t, (i, j, d, m) in enumerate(T):
        if d:
            end[(j, j, m)] = st[t, 5]
            if j > 0: end[(j, j - 1, m)] = st[t, 4]
        else:
            end[(i, j, m)] = st[t, 5]
    rows = []
    for t, (i, j, d, m) in enumerate(T):
        c = j - 1 if d else j
        if c < 8: continue
        s0, le = st[t, 0], st[t, 1]
        ready = np.array([max(end[(i, k, m)], end[(c, k, m)]) for k in range(c)])
        ready = np.maximum(ready, s0)
        lo, hi = 0.0, (le - s0) / c * 2 + 1
        for _ in range(50):
            p = (lo + hi) / 2
            if (ready + (c - np.arange(c)) * p).max() > le: hi = p
            else: lo = p
        waiting = (ready + (c - np.arange(c)) * lo).argmax()
        rows.append((c, lo, d, le - s0, (ready[-1] - s0)))
    R = np.array(rows)
    print(f"{path.split('/')[-1]}: {len(R)} tasks with c ≥ 8; µs a tile product (p):")
    for lo_, hi_ in [(8, 16), (16, 32), (32, 64), (64, 96), (96, 128), (128, 256)]:
        for dd in (0, 1):
            sel = R[(R[:, 0] >= lo_) & (R[:, 0] < hi_) & (R[:, 2] == dd)]
            if len(sel): print(f"   {'diag' if dd else 'tile'} c in [{lo_},{hi_}): {len(sel):5d} tasks, p median {np.median(sel[:,1]):.3f} (10 % {np.percentile(sel[:,1],10):.3f}, 90 % {np.percentile(sel[:,1],90):.3f}); loop {np.median(sel[:,3]):.1f} µs, last input {np.median(sel[:,4]):.1f} µs after start")
