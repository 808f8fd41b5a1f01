# Lab tool (development machine or device): where a kernel's local memory is. Compiles blocked.cu variants with
# -lineinfo as tiledlab.build does (NVRTC at $NVRTC: CUDA 13's, session 60 call 2, gives the device's frames), then
# lists each STL/LDL of the named kernel with the source line nvdisasm gives it (blocked.cu's numbering).
#
#   python3 bench/results/h200/session60/lab/spills.py LAB.py [KERNEL]
#
# LAB.py is a lab that defines sources ({variant: text}) and kernels ({key: expression}) at import with
# COMPILE_ONLY=1 (this tool sets it); KERNEL (default: every chol_tiled<float kernel with a frame) selects by
# substring. $NVDISASM: nvdisasm (12.4's reads CUDA 13's sm_90 cubins).
import os, re, runpy, subprocess, sys

os.environ["COMPILE_ONLY"] = "1"
os.environ["NVRTC_OPTS"] = (os.environ.get("NVRTC_OPTS", "") + " -lineinfo").strip()
os.environ.setdefault("CUBINS", "/tmp")
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
except SystemExit:
    pass
want = sys.argv[2] if len(sys.argv) > 2 else None
nvdisasm = os.environ.get("NVDISASM", "nvdisasm")
tag = os.path.basename(os.environ.get("NVRTC", "nvrtc11"))
for cubin in sorted(f for f in os.listdir(os.environ["CUBINS"]) if f.startswith("lab20-") and f.endswith(f"-{tag}.cubin")):
    sass = subprocess.run([nvdisasm, "-g", "-c", os.path.join(os.environ["CUBINS"], cubin)], capture_output=True, text=True).stdout
    fn, line = None, "?"
    for s in sass.splitlines():
        m = re.match(r"\s*\.text\.(\S+):", s)
        if m:
            fn = m.group(1)
            continue
        m = re.search(r'line (\d+)', s)
        if m and "//##" in s:
            line = m.group(1)
            continue
        if re.search(r"\b(STL|LDL)", s) and fn and (want is None or want in fn):
            print(f"{cubin} {fn[:60]} line {line}: {s.split('*/')[-1].strip()}")
