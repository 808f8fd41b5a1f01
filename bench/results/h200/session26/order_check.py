# Session 26 (order_check.py): simulates chol_tiled's ticket order of order.patch (diagonal task g right after tile
# (g, g − 2)) for every nt < 40 and panel width wt ≤ nt: each tile made once, every task reading only tiles
# made by earlier tickets. Prints "bad 0"; with diagonal task g + 1 before (g + 1, g − 1) it prints 9139.
def task(pos, nt, wt):
    g = 0
    while True:
        size = (1 + (wt >= 2)) if g == 0 else (nt - g - 1 + (g + 1 < wt)) if g < wt else nt - wt
        if pos < size: break
        pos -= size; g += 1
    withd = g + 1 < wt
    diag = g == 0 or (g < wt and withd and pos == 1)
    j = pos if g == 0 else (g + 1 if diag else (g - 1 if g < wt else wt - 1))
    i = j if diag else ((g + 1 + (pos - 1 if withd and pos >= 2 else pos)) if g < wt else wt + pos)
    return diag, i, j
bad = 0
for nt in range(1, 40):
    for wt in range(1, nt + 1):
        tasks = wt * nt - wt * (wt + 1) // 2 + 1
        seen = {}
        order = [task(p, nt, wt) for p in range(tasks)]
        # tiles made: diag j makes (j,j) and (j,j-1) if j>=1; off-diag (i,j)
        made = {}
        for t, (d, i, j) in enumerate(order):
            outs = [(j, j)] + ([(j, j - 1)] if j >= 1 else []) if d else [(i, j)]
            for o in outs:
                assert o not in made, (nt, wt, o); made[o] = t
        expect = {(i, j) for j in range(wt) for i in range(j, nt)}
        if wt < nt: pass
        assert set(made) == expect, (nt, wt, set(made) ^ expect)
        for t, (d, i, j) in enumerate(order):
            c = j - 1 if d else j
            need = []
            if c >= 0:
                need += [(c, c)] + [(i, k) for k in range(c)] + [(c, k) for k in range(c)]
            for x in need:
                if made[x] >= t and not (d and x == (i, c)):
                    bad += 1; print("late dep", nt, wt, t, (d, i, j), x, made[x])
print("bad", bad)
