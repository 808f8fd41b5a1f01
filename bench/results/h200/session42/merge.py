# merge.py: writes session 42's measured rows into the committed tables in tuned/, run from the repository root with
# calls 3 and 5's logs unpacked under /tmp/s42 (tar xJf callN-logs.tar.xz -C /tmp/s42). Rows are copied as tune wrote them,
# replacing the rows they measure again (every row of the order n = 64 of these tables), and the table put in key
# order; a note goes after the last session's note. A table that has its note already is left alone.
import sys

N64 = lambda k: k[1] == 64
TABLES = [
    ("potrf.float64", ["logs5/u42a"], N64,
     ["Session 42 measured the rows n = 64 again, both triangles, after float64's warp tier went to n = 64 (potrf_split:",
      "left-looking by panels of 16 columns, a packed tile): batchlas tune potrf --device cuda:0 --dtype float64 --n 64",
      "--batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --inputs gpumode --max-mib 4096 --time 20ms --count 3",
      "(call 5, the final kernels; call 3 measured the first split body); native:warp leads every row but Upper with 2 to",
      "8 matrices (native:cta by under 0.1 µs). bench/results/h200/session42/ has the commands, logs, journals and this",
      "merge.py."]),
    ("posv.float64", ["logs5/u42b"], N64,
     ["Session 42 measured the rows n = 64 again, both triangles, after Posv there became potrf_split then potrs_split",
      "(potrf_cta then potrs_warp before): batchlas tune posv --device cuda:0 --dtype float64 --n 64 --uplo L,U --nrhs",
      "1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3 (call 5, the final kernels).",
      "bench/results/h200/session42/ has the commands, logs, journals and this merge.py."]),
    ("potrs.float64", ["logs3/t42c"], N64,
     ["Session 42 measured the rows n = 64 again, both triangles, after potrs_warp's float64 buckets from 52 became",
      "potrs_split (the factor in a packed tile filled by cp.async); the Lower row at 65,536 systems had kept an old",
      "point (2920 µs for 1 rhs, now 626.3): batchlas tune potrs --device cuda:0 --dtype float64 --n 64 --uplo L,U",
      "--nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3 (call 3).",
      "bench/results/h200/session42/ has the commands, logs, journals and this merge.py."]),
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
    if any(l.startswith("# Session 42") for l in lines):
        print(f"{path}: already merged")
        return
    have = rows(path)
    new = {}
    dt = name.split(".")[1]
    for grid in grids:
        got = rows(f"/tmp/s42/{grid}/{name}.sm_90.txt")
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
