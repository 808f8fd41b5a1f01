# merge.py: writes session 44's measured rows into tuned/posv.float64.sm_90.txt, run from the repository root with
# call 5's logs unpacked under /tmp/s44 (tar xJf bench/results/h200/session44/call5-logs.tar.xz -C /tmp/s44). Rows
# replace the table's rows of the orders the note names, every one of them; the table is put in key order, a note
# after the last session's. A table with a session 44 note is left alone.
import sys

C5 = "/tmp/s44/logs5/"
GRID = "--uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3"
END = ["bench/results/h200/session44/ has the commands, logs and this merge.py."]
TABLES = [
    ("posv.float64", [C5 + "t44/posv.float64.sm_90.txt"], (48, 64),
     ["Session 44 measured the rows n = 48 and 64 again, both triangles, after Posv took posv_split (factor and solve from",
      "one packed tile, posv.go's posvSplit): batchlas tune posv --device cuda:0 --dtype float64 --n 48,64",
      f"{GRID} (call 5)."] + END),
]


def rows(path):
    out = {}
    for l in open(path, encoding="utf-8"):
        if l[:2] in ("L ", "U "):
            f = l.split()
            ints = []
            for x in f[1:]:
                if not x.isdigit():
                    break
                ints.append(int(x))
            out[(f[0], *ints)] = l.rstrip("\n")
    return out


def merge(name, sources, orders, note):
    path = f"tuned/{name}.sm_90.txt"
    lines = open(path, encoding="utf-8").read().rstrip("\n").split("\n")
    if any(l.startswith("# Session 44") for l in lines):
        print(f"{path}: already merged")
        return
    have = rows(path)
    new = {}
    for src in sources:
        got = rows(src)
        if not got:
            sys.exit(f"{src}: no rows")
        for k, line in got.items():
            if k[1] not in orders:
                sys.exit(f"{src}: {k} is not an order the note names")
            if " - " in line or " skip" in line:
                sys.exit(f"{src}: {k} has a failed or skipped candidate")
            new[k] = line
    old = {k for k in have if k[1] in orders}
    if old - set(new):
        sys.exit(f"{path}: rows {sorted(old - set(new))} of the orders named were not measured again")
    head = [l for l in lines if l[:2] not in ("L ", "U ")]
    at = next(i for i, l in enumerate(head) if not l.startswith("#"))
    head = head[:at] + ["# " + l for l in note] + head[at:]
    head = [("date    2026-12-04" if l.startswith("date ") else l) for l in head]
    replaced = len(old)
    have.update(new)
    body = [have[k] for k in sorted(have)]
    open(path, "w", encoding="utf-8").write("\n".join(head + body) + "\n")
    print(f"{path}: {len(new) - replaced} rows added, {replaced} replaced, {len(have)} in all")


for t in TABLES:
    merge(*t)
