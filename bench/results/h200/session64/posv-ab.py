#!/usr/bin/env python3
"""posv-ab.py tables call 1's TestPosvTiming logs (logs.tgz, or a folder of
them): the native arm's median per case for each build (s64 = HEAD, s64p =
the column steps, s64q = the steps and store_upper's bounds), the lower of
the two turns and both turns, and each patched build's ratio to HEAD.

    python3 bench/results/h200/session64/posv-ab.py bench/results/h200/session64/call1-logs.tgz
"""
import glob
import re
import sys
import tarfile
from collections import defaultdict

LINE = re.compile(r"(\w+)\s+n=\s*(\d+) nrhs=\s*(\d+) count=\d+( Upper)?: native\s+([\d.]+) µs")
NAME = re.compile(r"timing-(s64\w?)-(\d)\.log$")


def logs(path):
    if path.endswith(".tgz"):
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if NAME.search(m.name):
                    yield m.name, t.extractfile(m).read().decode()
    else:
        for f in sorted(glob.glob(path + "/timing-*.log")):
            yield f, open(f).read()


times = defaultdict(lambda: defaultdict(list))  # case -> build -> [µs per turn]
for name, text in logs(sys.argv[1]):
    build = NAME.search(name).group(1)
    for m in LINE.finditer(text):
        typ, n, nrhs, up, us = m.groups()
        case = (typ, "U" if up else "L", int(n), int(nrhs))
        times[case][build].append(float(us))

builds = ["s64", "s64p", "s64q"]
print("| type | uplo | n | nrhs | HEAD s64 | steps s64p | +store s64q | s64p/s64 | s64q/s64 | turns (s64; s64p; s64q) |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for case in sorted(times):
    t = times[case]
    best = {b: min(t[b]) if t[b] else float("nan") for b in builds}
    turns = "; ".join(", ".join(f"{x:.1f}" for x in t[b]) for b in builds)
    print(f"| {case[0]} | {case[1]} | {case[2]} | {case[3]} | {best['s64']:.1f} | {best['s64p']:.1f} | {best['s64q']:.1f} | "
          f"{best['s64p'] / best['s64']:.3f} | {best['s64q'] / best['s64']:.3f} | {turns} |")
