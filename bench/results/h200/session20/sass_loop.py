# Lab (no GPU needed): the opcode mix of the loops with HMMA in one kernel of a cubin res.py wrote, and the forward
# branches inside them (the diagonal task's path against the others'): static counts, not executed ones.
#   python3 sass_loop.py CUBIN MANGLED_NAME
import collections, re, subprocess, sys
cubin, fn = sys.argv[1], sys.argv[2]
sass = subprocess.run(["cuobjdump", "-sass", "-fun", fn, cubin], capture_output=True, text=True).stdout
lines = [l for l in sass.splitlines() if re.match(r"\s+/\*[0-9a-f]{4,}\*/", l)]
addr = [int(re.match(r"\s+/\*([0-9a-f]+)\*/", l).group(1), 16) for l in lines]
def op(l):
    w = l.split(";")[0].split()[1:]
    return (w[1] if w[0].startswith("@") else w[0]).split(".")[0]
for i, l in enumerate(lines):
    m = re.search(r"BRA (?:!?P\d, )?0x([0-9a-f]+)", l)
    if not m or int(m.group(1), 16) >= addr[i] or int(m.group(1), 16) not in addr:
        continue
    j = addr.index(int(m.group(1), 16))
    body = lines[j:i + 1]
    if not any("HMMA" in b for b in body):
        continue
    c = collections.Counter(op(b) for b in body)
    print(f"loop {j}–{i}: {len(body)} instructions:", ", ".join(f"{k} {n}" for k, n in c.most_common(14)))
    for k, b in enumerate(body):
        m = re.search(r"BRA (?:!?P\d, )?0x([0-9a-f]+)", b)
        if m and int(m.group(1), 16) in addr[j:i + 1] and k < len(body) - 1:
            print(f"   branch at {k} to {addr[j:i + 1].index(int(m.group(1), 16))}: {b.split(';')[0].strip()}")
