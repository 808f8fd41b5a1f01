# equivalence.py: the record of this session's SASS comparisons, from the JSON files that session37/sass.py wrote
# (NVRTC 12.4 for sm_90, here): per kernel a hash of its SASS with addresses stripped, registers and local bytes.
#   old: HEAD 11ff258; ran: the posv.cu of device calls 3 to 5; final: the committed posv.cu (load_row without its dead
#   Upper branch); new: the committed potrf sources (copy_async and wait_copies in the scalar prelude).
# Usage: python3 equivalence.py DIR > equivalence.log, DIR holding all-old, all-new (ran), all-final, potrf-, cta- and
# warp-{old,new}.json.
import json, sys

d = sys.argv[1]
load = lambda name: json.load(open(f"{d}/{name}.json"))


def compare(title, a, b, pick=lambda k: True):
    keys = sorted(k for k in b if pick(k))
    same = [k for k in keys if a[k]["sass"] == b[k]["sass"]]
    print(f"{title}: {len(same)} of {len(keys)} kernels with the same SASS")
    for k in keys:
        if a[k]["sass"] != b[k]["sass"]:
            print(f"  differs: {k}: {a[k]['reg']} → {b[k]['reg']} registers, {a[k]['n']} → {b[k]['n']} instructions")


old, ran, final = load("all-old"), load("all-new"), load("all-final")
compare("posv.cu, committed against what ran on the device (all)", ran, final)
compare("posv.cu, Lower kernels, HEAD against what ran", old, ran, lambda k: ", false," in k)
print("posv.cu, Upper kernels, HEAD → what ran: registers")
for k in sorted(k for k in ran if ", true," in k):
    print(f"  {k}: {old[k]['reg']} → {ran[k]['reg']}, local {ran[k]['local']} B")
for src in ("potrf", "cta", "warp"):
    compare(f"{src}: HEAD against this tree (prelude with copy_async)", load(f"{src}-old"), load(f"{src}-new"))
print("local memory > 0 in any kernel:", [k for j in (ran, final) for k in j if j[k].get("local")])
