# merge.py: writes session 41's measured rows into the committed tables in tuned/, run from the repository root with
# the calls' logs unpacked under /tmp/s41 (for c in 2 3 4; do tar xJf callN-logs.tar.xz -C /tmp/s41; done). Rows are
# copied as tune wrote them and the table put in key order; a note goes after the last session's note. A table that
# has its note already is left alone.
import sys

# (table, grids, rows it may replace, note): every other measured row must be a point the table lacks.
POTRF_NOTE = [
    "both triangles: points over the grid's --max-mib 256, whose absence sent those calls to another order's row",
    "(float32 n = 48 with 65,536 matrices to native:tiled:occ=4, the row n = 32; float64 n = 48 with 16,384 or 65,536",
    "to native:blocked). batchlas tune potrf --device cuda:0 --inputs gpumode --max-mib 4096 --time 20ms --count 3",
    "--uplo L,U on those points alone, in five grids (calls 2 and 3); no other row changed. bench/results/h200/session41/",
    "has the commands, logs, journals and this merge.py.",
]
SOLVE_NOTE = [
    "batchlas tune --device cuda:0 --nrhs 1,4,16 --max-mib 2048 --time 20ms --count 3 (call 4, the grids in call4.sh);",
    "no first candidate changed. bench/results/h200/session41/ has the commands, logs, journals and this merge.py.",
]
UPPER = lambda k: k[0] == "U" and k[1] in (48, 64)
TABLES = [
    ("potrf.float32", ["logs2/p41a", "logs2/p41d"], None,
     ["Session 41 added the rows n = 48, 56, 64 at 65,536 matrices and n = 96, 128 at 16,384 and 65,536,"] + POTRF_NOTE),
    ("potrf.float64", ["logs2/p41b", "logs2/p41c", "logs3/p41e"], None,
     ["Session 41 added the rows n = 32 at 65,536 matrices, n = 48, 56, 64 at 16,384 and 65,536, and n = 96, 128 at",
      "4,096 and 16,384,"] + POTRF_NOTE),
    ("posv.float32", ["logs4/q41u"], UPPER,
     ["Session 41 measured the Upper rows n = 48 and 64 again after posv_warp moved aligned Upper columns through its",
      "wide tile (session 39):"] + SOLVE_NOTE),
    ("posv.float64", ["logs4/q41u", "logs4/q41l", "logs4/q41m"], UPPER,
     ["Session 41 measured the Upper rows n = 48 and 64 again after posv_warp moved aligned Upper columns through its",
      "wide tile from 48 columns (session 39), and added the points over 1 GiB: Upper and Lower n = 48 and 64 at 65,536",
      "systems, Lower n = 96 and 128 at 16,384:"] + SOLVE_NOTE),
    ("potrs.float64", ["logs4/q41p", "logs4/q41q"], None,
     ["Session 41 added the points over 1 GiB at 65,536 systems: Upper n = 48 and 64, Lower n = 48;"] + SOLVE_NOTE),
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


def merge(name, grids, replaceable, note):
    path = f"tuned/{name}.sm_90.txt"
    lines = open(path, encoding="utf-8").read().rstrip("\n").split("\n")
    if any(l.startswith("# Session 41") for l in lines):
        print(f"{path}: already merged")
        return
    have = rows(path)
    new = {}
    dt = name.split(".")[1]
    for grid in grids:
        got = rows(f"/tmp/s41/{grid}/{name}.sm_90.txt")
        if not got:
            sys.exit(f"{grid}: no {dt} rows")
        for k, line in got.items():
            if k in new or (k in have and not (replaceable and replaceable(k))):
                sys.exit(f"{path}: {k} is already there")
            if " - " in line or " skip" in line:
                sys.exit(f"{grid}: {k} has a failed or skipped candidate")
            new[k] = line
    replaced = sum(k in have for k in new)
    if replaceable and replaced != sum(1 for k in have if replaceable(k)):
        sys.exit(f"{path}: {replaced} rows replaced, not all of those the note names")
    head = [l for l in lines if l[:2] not in ("L ", "U ")]
    at = next(i for i, l in enumerate(head) if not l.startswith("#"))
    head = head[:at] + ["# " + l for l in note] + head[at:]
    head = [("date    2026-12-04" if l.startswith("date ") else l) for l in head]
    have.update(new)
    body = [have[k] for k in sorted(have)]
    open(path, "w", encoding="utf-8").write("\n".join(head + body) + "\n")
    print(f"{path}: {len(new) - replaced} rows added, {replaced} replaced, {len(have)} in all")


for t in TABLES:
    merge(*t)
