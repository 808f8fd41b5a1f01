# Lab: one warm-up and one measured launch of chol_tiled (compiled with -lineinfo) for ncu: CASE=UPLO,SPLIT,N,COUNT.
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
from common import *
uplo, split, n, count = os.environ["CASE"].split(",")
k = KN[(uplo, int(split))]
f = build(BLK, [k], lineinfo=True)[k]
print(k, f.num_regs, "regs", f.local_size_bytes, "B local")
c = Case(int(n), int(count), uplo)
for _ in range(2):
    c.launch(f)
cp.cuda.runtime.deviceSynchronize()
print("info, resid:", c.check())
