#!/usr/bin/env python3
"""store-cond.py checks posv-store.patch's rule against the one it replaces:
for every lane, order n, column count NC, failing pivot and active flag,
the old store_upper and the new one write the same elements of U (i, lane)
with the same choice of value (the pivot or conj(L)). Exit 1 on any
difference, with the first few listed.

    python3 bench/results/h200/session64/store-cond.py
"""
import sys


def old(lanes, nc, n, fail, active):
    last = fail - 1 if fail else nc
    out = set()
    for lane in range(lanes):
        for i in range(nc):
            if active and i < n and lane <= i and (lane < last or (lane == i and i == fail - 1)):
                out.add((lane, i, lane == fail - 1))
    return out


def new(lanes, nc, n, fail, active):
    last = fail - 1 if fail else nc
    out = set()
    for lane in range(lanes):
        end = 0 if not active else n if lane < last else fail if lane == fail - 1 else 0
        for i in range(n):
            if lane <= i < end:
                out.add((lane, i, lane == fail - 1))
    return out


bad, cases = [], 0
for lanes in (4, 8, 16, 32):
    for nc in range(4, lanes + 1, 4):
        for n in range(0, nc + 1):
            for fail in range(0, nc + 1):
                for active in (False, True):
                    cases += 1
                    a, b = old(lanes, nc, n, fail, active), new(lanes, nc, n, fail, active)
                    if a != b:
                        bad.append((lanes, nc, n, fail, active, sorted(a ^ b)[:4]))
print(f"{cases} cases, {len(bad)} differ")
for b in bad[:5]:
    print("lanes %d NC %d n %d fail %d active %s: %s" % b)
sys.exit(1 if bad else 0)
