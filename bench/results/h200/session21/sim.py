# Discrete-event model of chol_tiled's schedule at batch count: blocks take tickets in order; a task's loop step k
# starts when its inputs are released (+lat) and the previous step is done, and takes p (1.5p for a pair).
import heapq, sys
def sim(n, count, blocks, p, chain=False, lat=1.0, hand=0.6, solve=1.7, factor=6.7, tsolve=1.0, tstore=0.8,
        cstep_pre=1.2, cfactor=4.2):
    nt = n // 32
    ready = {}
    order = []
    if not chain:
        for g in range(nt):
            for pos in range(1 if g == 0 else nt - g):
                for m in range(count):
                    order.append(("diag", g, g, m) if pos == 0 else ("tile", g + pos, g - 1, m))
    else:
        for m in range(count): order.append(("chain", 0, 0, m))
        for g in range(1, nt):
            for m in range(count):
                if 2 <= g <= nt - 2: order.append(("pre", g + 1, g + 1, m))
            for i in range(g + 1, nt):
                for m in range(count): order.append(("tile", i, g - 1, m))
    free = [(0.0, b) for b in range(blocks)]
    heapq.heapify(free)
    # tasks are taken in order; but a task's times depend on readiness of earlier tasks' outputs, which are all
    # computed already when processed in ticket order except chain outputs: compute chain lazily.
    chain_state = {}
    def R(key):
        return ready[key]
    def loop(t, i, c, kend, pair):
        for k in range(kend):
            t = max(t, R((i, k, m_)) + lat, R((c, k, m_)) + lat) + (1.5 * p if pair else p)
        return t
    pending_chain = []
    def run_chain(m, upto):
        s, t = chain_state.get(m, (0, 0.0))
        while s <= upto and s < nt:
            if s >= 3 and ("P", s, m) not in ready: break
            if s >= 2 and (s, s - 2, m) not in ready: break
            need = max([t] + ([ready[("P", s, m)] + lat] if s >= 3 else []) + ([ready[(s, s - 2, m)] + lat] if s >= 2 else []))
            t = need + (cstep_pre if s >= 1 else 0)
            ready[(s, s - 1, m)] = t + 0.8 if s >= 1 else 0
            t += cfactor
            ready[(s, s, m)] = t + 1.0  # released during the next step
            s += 1
        chain_state[m] = (s, t)
    global m_
    makespan = 0
    for kind, i, j, m in order:
        m_ = m
        t0, b = heapq.heappop(free)
        if kind == "chain":
            chain_state[m] = (0, t0); run_chain(m, 0)
            heapq.heappush(free, (1e18, b)); continue  # resident for the whole factorization
        if chain:
            # tile (i, j) needs chain outputs up to column j; run the chain as far as possible
            for mm in range(count): run_chain(mm, nt)
        if kind == "diag":
            c = j - 1
            t = loop(t0, j, c, c, True) if c >= 0 else t0
            if c >= 0:
                t = max(t, R((c, c, m)) + hand) + solve
                ready[(j, c, m)] = t
            t += factor
            ready[(j, j, m)] = t
        elif kind == "pre":
            t = loop(t0, i, i - 1, i - 2, True) + tstore
            ready[("P", i, m)] = t
        else:
            c = j
            t = loop(t0, i, c, c, False)
            t = max(t, R((c, c, m)) + hand) + tsolve + tstore
            ready[(i, c, m)] = t
        heapq.heappush(free, (t, b))
        makespan = max(makespan, t)
    if chain:
        for mm in range(count): run_chain(mm, nt)
        makespan = max(makespan, max(v[1] for v in chain_state.values()))
    return makespan
if __name__ == "__main__":
    for p in [0.3, 0.4, 0.5, 0.6, 0.7]:
        row = []
        for n, count in [(4096, 1), (2048, 2), (1024, 4), (512, 16), (2048, 8)]:
            a = sim(n, count, 264, p); b = sim(n, count, 264, p, chain=True)
            row.append(f"n{n}b{count} {a:7.0f} -> {b:7.0f}")
        print(f"p={p}: " + "  ".join(row), flush=True)
