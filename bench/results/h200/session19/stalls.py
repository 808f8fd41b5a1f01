# Lab: warp-stall samples summed by reason over every SASS instruction of `ncu --page source --csv` output (argv[1]).
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
hi = next(i for i, r in enumerate(rows) if any("Sampl" in c for c in r))
head = rows[hi]
body = rows[hi + 1:]
def num(x):
    try: return float(x)
    except ValueError: return 0.0
sums = {h: sum(num(r[i]) for r in body if len(r) > i) for i, h in enumerate(head) if h.startswith("stall_") and "Not Issued" not in h}
tot = sum(sums.values())
for h, v in sorted(sums.items(), key=lambda kv: -kv[1]):
    if v: print(f"{h:28s} {v / tot * 100:5.1f}%")
src = head.index("Source")
ops = {}
ex = head.index("Instructions Executed") if "Instructions Executed" in head else None
for r in body:
    if len(r) <= src: continue
    op = r[src].split()[0] if r[src].split() else "?"
    if op.startswith("@"): op = r[src].split()[1]
    op = op.split(".")[0]
    o = ops.setdefault(op, [0.0, 0.0])
    o[0] += num(r[ex]) if ex is not None else 0
    o[1] += num(r[head.index("Warp Stall Sampling (All Samples)")])
te = sum(v[0] for v in ops.values()); ts = sum(v[1] for v in ops.values())
print("opcode: share of executed warp instructions, of stall samples")
for op, (e, s) in sorted(ops.items(), key=lambda kv: -kv[1][0])[:25]:
    print(f"  {op:10s} {e / te * 100:5.1f}% {s / ts * 100:5.1f}%")
