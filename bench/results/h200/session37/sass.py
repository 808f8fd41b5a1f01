# sass.py SRC NAMES OUT.json: compile SRC (a whole kernel source) with NVRTC 12.4 for sm_90, the name expressions in
# NAMES (one a line), in parallel chunks; write per kernel: SASS hash (addresses stripped), registers, local bytes.
import ctypes, hashlib, json, os, re, subprocess, sys
from concurrent.futures import ProcessPoolExecutor
NVRTC="/tmp/nv/root/usr/lib/x86_64-linux-gnu/libnvrtc.so.12"; CUOBJ="/tmp/nv/root/usr/bin/cuobjdump"
src=open(sys.argv[1],encoding="utf-8").read(); names=[l.strip() for l in open(sys.argv[2]) if l.strip()]
def build(idx_names):
    idx, nm = idx_names
    nv=ctypes.CDLL(NVRTC); prog=ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"x.cu", 0, None, None)
    for k in nm: nv.nvrtcAddNameExpression(prog, k.encode())
    o=[b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc=nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p*len(o))(*o))
    n_=ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log=ctypes.create_string_buffer(n_.value); nv.nvrtcGetProgramLog(prog, log)
    if rc: return {"error": log.value.decode()[-3000:]}
    n_=ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf=ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path=f"/tmp/s37/c{os.getpid()}_{idx}.cubin"; open(path,"wb").write(buf.raw)
    low={}
    for k in nm:
        p=ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[p.value.decode()]=k
    sass=subprocess.run([CUOBJ,"-sass",path],capture_output=True,text=True).stdout
    res=subprocess.run([CUOBJ,"-res-usage",path],capture_output=True,text=True).stdout
    out={}; cur=None; body={}
    for line in sass.splitlines():
        m=re.search(r"Function : (\S+)",line)
        if m: cur=low.get(m.group(1),m.group(1)); body[cur]=[]; continue
        m=re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?);",line)
        if m and cur: body[cur].append(m.group(1))
    regs={}; cur=None
    for line in res.splitlines():
        m=re.search(r"Function (\S+):",line)
        if m: cur=low.get(m.group(1),m.group(1)); continue
        m=re.search(r"REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)",line)
        if m and cur: regs[cur]=dict(reg=int(m.group(1)),stack=int(m.group(2)),shared=int(m.group(3)),local=int(m.group(4)))
    for k,v in body.items():
        out[k]=dict(sass=hashlib.sha1("\n".join(v).encode()).hexdigest()[:12], n=len(v), **regs.get(k,{}))
    os.remove(path)
    return out
chunks=[names[i::8] for i in range(8)]
with ProcessPoolExecutor(2) as ex: R=list(ex.map(build, enumerate(chunks)))
allk={}
for r in R:
    if "error" in r: print(r["error"]); sys.exit(1)
    allk.update(r)
json.dump(allk, open(sys.argv[3],"w"), indent=1, sort_keys=True)
for k in names:
    v=allk.get(k); print(k, v if v else "MISSING")
