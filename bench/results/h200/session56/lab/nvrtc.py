# nvrtc.py (lab, session 56): compile_only(source, name) compiles a lab's CUDA source for sm_90 with the NVRTC at
# $NVRTC (here: scripts/local-cuda's 12.4) and prints the compiler's log; handoff.py and cluster.py call it under
# COMPILE_ONLY=1 to check their sources on a machine without a GPU or CuPy.
import ctypes
import os


def compile_only(source, name):
    """NVRTC's result code (0: compiled) for source, after printing it and the log."""
    nv = ctypes.CDLL(os.environ.get("NVRTC", "libnvrtc.so"))
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    n = ctypes.c_size_t()
    nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    nv.nvrtcGetProgramLog(prog, log)
    print(f"{name}: nvrtc rc {rc}", log.value.decode())
    return rc
