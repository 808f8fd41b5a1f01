# Here, without a GPU: compiles one kernel of a `batchlas kernels -dump` family with the NVRTC of scripts/local-cuda
# and prints its resources, then the instruction mix of each loop (a backward branch's body) that holds HMMAs, and
# of any address ranges given (hex, from the listing it writes). Session 47's counts of chol_tiled's loop step:
#   eval "$(scripts/local-cuda /tmp/lcuda)"; go run ./cmd/batchlas kernels -dump /tmp/kd
#   python3 bench/results/h200/session47/lab/loop-sass.py /tmp/kd/08-blocked.cu \
#       'chol_tiled<float, 32, 128, true, true, false, 4>' /tmp/u4.sass 6400-7510 7510-8500 52e0-6400
# (blocked.cu as of 7493505, unchanged since, under NVRTC 12.4: the row-pair products, the pair products, and the step's waits,
# copies and barrier; other sources or compilers move the addresses).
import ctypes, glob, os, re, subprocess, sys, tempfile

nvrtc = os.environ["NVRTC"]
for b in sorted(glob.glob(os.path.join(os.path.dirname(nvrtc), "libnvrtc-builtins.so*")))[:1]:
    ctypes.CDLL(b, mode=ctypes.RTLD_GLOBAL)
L = ctypes.CDLL(nvrtc)
src, name, listing, ranges = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
prog = ctypes.c_void_p()
L.nvrtcCreateProgram(ctypes.byref(prog), open(src).read().encode(), os.path.basename(src).encode(), 0, None, None)
L.nvrtcAddNameExpression(prog, name.encode())
opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
if L.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts)):
    n = ctypes.c_size_t(); L.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value); L.nvrtcGetProgramLog(prog, log)
    sys.exit(log.value.decode()[-5000:])
n = ctypes.c_size_t(); L.nvrtcGetCUBINSize(prog, ctypes.byref(n))
cubin = ctypes.create_string_buffer(n.value); L.nvrtcGetCUBIN(prog, cubin)
low = ctypes.c_char_p(); L.nvrtcGetLoweredName(prog, name.encode(), ctypes.byref(low))
fd, path = tempfile.mkstemp(suffix=".cubin"); os.write(fd, cubin.raw); os.close(fd)
dump = os.environ.get("CUOBJDUMP", "cuobjdump")
for line in subprocess.run([dump, "-res-usage", path], capture_output=True, text=True).stdout.splitlines():
    if "REG:" in line:
        print(line.strip())
sass = subprocess.run([dump, "-sass", "-fun", low.value.decode(), path], capture_output=True, text=True).stdout
ins = [(int(m.group(1), 16), " ".join(m.group(2).split())) for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", sass)]
open(listing, "w").write("".join(f"{a:05x} {s}\n" for a, s in ins))
print(f"{len(ins)} instructions, {sum('HMMA' in s for _, s in ins)} HMMA; listing in {listing}")


def mix(lo, hi):
    body = [s for a, s in ins if lo <= a < hi]
    kinds = {}
    for s in body:
        op = (s.split()[1] if s.startswith("@") else s.split()[0]).split(".")[0]
        kinds[op] = kinds.get(op, 0) + 1
    top = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:12])
    return len(body), kinds.get("HMMA", 0), top


at = {a: i for i, (a, _) in enumerate(ins)}
for a, s in ins:
    m = re.search(r"BRA (?:!?U?P\w+, )?0x([0-9a-f]+)", s)
    if m and int(m.group(1), 16) < a and int(m.group(1), 16) in at:
        count, hmma, top = mix(int(m.group(1), 16), a + 1)
        if hmma:
            print(f"loop {int(m.group(1), 16):05x}-{a:05x}: {count} instructions, {hmma} HMMA: {top}")
for r in ranges:
    lo, hi = (int(x, 16) for x in r.split("-"))
    count, hmma, top = mix(lo, hi)
    print(f"range {lo:05x}-{hi:05x}: {count} instructions, {hmma} HMMA: {top}")
