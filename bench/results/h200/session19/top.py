# Lab: the SASS instructions with the most warp-stall samples from `ncu --page source --csv` output (argv[1]).
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
hi = next(i for i, r in enumerate(rows) if any("Sampl" in c for c in r))
head = rows[hi]
print("columns:", " | ".join(head)[:1500])
cols = [i for i, h in enumerate(head) if "Sampl" in h]
main = next(i for i in cols if "All" in head[i]) if any("All" in head[i] for i in cols) else cols[0]
src = [i for i, h in enumerate(head) if h.lower() in ("source", "sass", "address", "#")]
body = [r for r in rows[hi + 1:] if len(r) > main and r[main].replace(".", "").isdigit()]
tot = sum(float(r[main]) for r in body)
print("total samples", tot)
body.sort(key=lambda r: -float(r[main]))
for r in body[:45]:
    print(f"{float(r[main]) / tot * 100:5.1f}% ", " | ".join(r[i] for i in src)[:160], "|", " ".join(f"{head[i][:20]}={r[i]}" for i in cols if r[i] not in ("0", "")) [:300])
