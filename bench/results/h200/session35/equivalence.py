# Session 35: the committed warp.cu (F) against the sources that ran on the device, compiled here (NVRTC 12.4 at
# $NVRTC, cuobjdump at $CUOBJDUMP) and compared function by function (SASS, addresses stripped): every float
# kernel against call 4's warp.cu (lab/call4-warp.cu.xz, taken from call 4's potrf.test, which embeds it), every
# double kernel against 026ee96's (lab/head.tar.xz; calls 2 and 3). Inputs unpacked under /tmp/head35 (warp.z.cu,
# warp.head.cu, potrf.head.cu) and the kernel names in /tmp/head35/names.txt (potrf.WarpKernelNames, one a line).
# neg.py ran the same comparison on potrf_warp<float, 64, true, false>, H against F: different, as it should be.
import ctypes, os, re, subprocess, sys
from concurrent.futures import ProcessPoolExecutor
P="/work/main/internal/gpu"
sc=open(f"{P}/scalar/scalar.cuh", encoding="utf-8").read(); pc=open(f"{P}/potrf/potrf.cu", encoding="utf-8").read()
names=[l.strip() for l in open("/tmp/head35/names.txt", encoding="utf-8") if l.strip()]
fl=[n for n in names if "<float" in n]; db=[n for n in names if "<double" in n]
SRC={"F": open(f"{P}/potrf/warp.cu", encoding="utf-8").read(), "Z": open("/tmp/head35/warp.z.cu", encoding="utf-8").read(), "H": open("/tmp/head35/warp.head.cu", encoding="utf-8").read()}
JOBS=[("F",fl),("F",db),("Z",fl),("H",db)]
def build(job):
    tag,nm=job
    code=sc+'\n#line 1 "potrf.cu"\n'+(pc if tag!="H" else open("/tmp/head35/potrf.head.cu", encoding="utf-8").read())+'\n#line 1 "warp.cu"\n'+SRC[tag]
    nv=ctypes.CDLL(os.environ["NVRTC"]); prog=ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"x.cu", 0, None, None)
    for k in nm: nv.nvrtcAddNameExpression(prog, k.encode())
    o=[b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc=nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p*len(o))(*o))
    if rc:
        n_=ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log=ctypes.create_string_buffer(n_.value); nv.nvrtcGetProgramLog(prog, log); return tag, log.value.decode()[-2000:]
    n_=ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf=ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path=f"/tmp/eq35/{tag}-{'f' if '<float' in nm[0] else 'd'}.cubin"; open(path,"wb").write(buf.raw)
    low={}
    for k in nm:
        p=ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[p.value.decode()]=k
    sass=subprocess.run([os.environ["CUOBJDUMP"],"-sass",path],capture_output=True,text=True).stdout
    funcs={}; cur=None
    for line in sass.splitlines():
        m=re.search(r"Function : (\S+)",line)
        if m: cur=low.get(m.group(1),m.group(1)); funcs[cur]=[]; continue
        m=re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?);",line)
        if m and cur: funcs[cur].append(m.group(1))
    return tag, funcs
with ProcessPoolExecutor(2) as ex:
    R=list(ex.map(build, JOBS))
for (tag,f) in R:
    if isinstance(f,str): print(tag,"FAILED",f); sys.exit(1)
Ff={**R[0][1],**R[1][1]}; Z=R[2][1]; H=R[3][1]
same=diff=0
for k in fl:
    if Ff[k]==Z[k]: same+=1
    else: diff+=1; print("float differs from call 4's:",k,len(Ff[k]),len(Z[k]))
for k in db:
    if Ff[k]==H[k]: same+=1
    else: diff+=1; print("double differs from 026ee96's:",k,len(Ff[k]),len(H[k]))
print(f"{same} identical, {diff} different, of {len(fl)} float and {len(db)} double kernels")
