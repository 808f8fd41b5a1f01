# Lab (run here, not on the GPU machine): the stack frame (EIATTR_FRAME_SIZE, 0x11) and minimum stack (0x12) that each
# function of a cubin records in its .nv.info section, for the cubins ptx.py wrote (argv[1:]). cuobjdump's LOCAL column
# leaves the frame out; the driver's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, which TestKernelResources reads, counts it.
import struct, sys

def frames(path):
    b = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", b, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
    secs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
        secs.append(dict(name=name, off=off, size=size, link=link))
    def cstr(base, o):
        return b[base + o:b.index(b"\0", base + o)].decode()
    for s in secs:
        s["n"] = cstr(secs[shstrndx]["off"], s["name"])
    symtab = next(s for s in secs if s["n"] == ".symtab")
    strtab = secs[symtab["link"]]["off"]
    syms = [cstr(strtab, struct.unpack_from("<I", b, symtab["off"] + i * 24)[0]) for i in range(symtab["size"] // 24)]
    nvinfo = next(s for s in secs if s["n"] == ".nv.info")
    out, p = {}, nvinfo["off"]
    while p < nvinfo["off"] + nvinfo["size"]:
        fmt, attr, size = struct.unpack_from("<BBH", b, p)
        if fmt == 4:
            if attr in (0x11, 0x12) and size == 8:
                sym, val = struct.unpack_from("<II", b, p + 4)
                out.setdefault(syms[sym], {})[attr] = val
            p += 4 + size
        else:
            p += 4
    return out

for path in sys.argv[1:]:
    nonzero = {k: v for k, v in frames(path).items() if any(v.values())}
    print(path.split("/")[-1], {k: f"frame {v.get(0x11, 0)} B, stack {v.get(0x12, 0)} B" for k, v in sorted(nonzero.items())})
