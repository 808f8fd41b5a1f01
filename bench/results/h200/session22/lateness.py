# From session 21's stamps (call1-stamps.tar.xz, prof21.py, float32 3xTF32, one block a multiprocessor): for each
# diagonal task g of matrix 0, its start (ticket taken), loop end and end, against the previous diagonal task's
# end, in µs from the first task's start. "Head start" is how long before the previous diagonal ends the task
# started; its loop is late when it ends after that. Usage: lateness.py st_*.npy (from the unpacked tarball).
import sys
import numpy as np

def tasks(n, count=1, TS=32):
    nt = (n + TS - 1) // TS
    out = []
    for g in range(nt):
        for pos in range(1 if g == 0 else nt - g):
            diag = pos == 0
            out.append((g if diag else g + pos, g if diag else g - 1, diag))
    return nt, [(i, j, d, m) for (i, j, d) in out for m in range(count)]

for path in sys.argv[1:]:
    spec = path.split("st_")[1].split(".npy")[0].split("x")
    n, count = int(spec[2]), int(spec[3])
    st = np.load(path).astype(float) / 1e3
    nt, T = tasks(n, count)
    t0 = st[:, 0].min()
    D = {j: st[t] - t0 for t, (i, j, d, m) in enumerate(T) if d and m == 0}
    R = np.array([(g, D[g - 1][5] - D[g][0], D[g][1] - D[g][0], D[g][1] - D[g - 1][5]) for g in range(2, nt)])
    print(f"{path.split('/')[-1]}: diagonal tasks by g, medians (µs): head start, loop, loop end − previous end; late")
    for lo in range(0, nt, 16):
        s = R[(R[:, 0] >= lo) & (R[:, 0] < lo + 16)]
        if len(s):
            late = s[s[:, 3] > 0]
            print(f"  g {lo:3d}–{lo + 15:3d}: head start {np.median(s[:, 1]):6.1f}, loop {np.median(s[:, 2]):6.1f}, "
                  f"{np.median(s[:, 3]):6.1f}; late {len(late):2d} of {len(s)}, {late[:, 3].sum():5.1f} µs")
