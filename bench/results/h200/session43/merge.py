# merge.py: writes session 43's measured rows into the committed tables in tuned/, run from the repository root with
# call 6's logs unpacked under /tmp/s43 (tar xJf bench/results/h200/session43/call6-logs.tar.xz -C /tmp/s43). Call 4's
# tunes come from logs4/*.rows (its summary's printout: the tune directories did not come back from the device). A
# later source's row replaces an earlier one's (call 6 measured posv float64 n = 48 at 1,024 systems again after
# solveApart got its count edge). Rows replace the table's rows of the orders the note names, every one of them; the
# table is put in key order, a note after the last session's. A table with a session 43 note is left alone.
import sys

C4 = "bench/results/h200/session43/logs4/"
C6 = "/tmp/s43/logs6/"
GRID = "--uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3"
END = ["bench/results/h200/session43/ has the commands, logs and this merge.py."]
TABLES = [
    ("potrs.float64", [C4 + "t43a-potrs.float64.rows", C6 + "t43d/potrs.float64.sm_90.txt"], (32, 48, 64),
     ["Session 43 measured the rows n = 48 and 64 again, both triangles, after float64's potrs_warp became potrs_split at",
      "every order and its tri_solve took chunks of 16 and 8 right-hand sides as two half-warps (call 4): batchlas tune",
      f"potrs --device cuda:0 --dtype float64 --n 48,64 {GRID}; and the rows n = 32 after posv.cu's",
      f"solve_halves (call 6): the same with --dtype float32,float64 --n 32."] + END),
    ("potrs.float32", [C6 + "t43d/potrs.float32.sm_90.txt"], (32,),
     ["Session 43 measured the rows n = 32 again, both triangles, after posv.cu's solve_halves (16 columns a chunk as two",
      f"half-warps): batchlas tune potrs --device cuda:0 --dtype float32,float64 --n 32 {GRID} (call 6)."] + END),
    ("posv.float64", [C4 + "t43b-posv.float64.rows", C6 + "t43c/posv.float64.sm_90.txt", C6 + "t43e/posv.float64.sm_90.txt"],
     (32, 48, 64),
     ["Session 43 measured the rows n = 48 and 64 again, both triangles, after potrs_split's half-warp chunks and Posv's",
      "two launches for many right-hand sides (posv.go's solveApart; Lower n = 48 with 16 here, from 16,384 systems):",
      f"batchlas tune posv --device cuda:0 --dtype float64 --n 48,64 {GRID} (call 4); the points at",
      "1,024 systems of n = 48 again after solveApart got its count edge, --n 48 --batch 1024 (call 6); and the rows n = 32",
      "after posv.cu's solve_halves, --dtype float32,float64 --n 32 (call 6)."] + END),
    ("posv.float32", [C6 + "t43c/posv.float32.sm_90.txt"], (32,),
     ["Session 43 measured the rows n = 32 again, both triangles, after posv.cu's solve_halves (16 columns a chunk as two",
      f"half-warps): batchlas tune posv --device cuda:0 --dtype float32,float64 --n 32 {GRID} (call 6)."] + END),
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
    if any(l.startswith("# Session 43") for l in lines):
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
