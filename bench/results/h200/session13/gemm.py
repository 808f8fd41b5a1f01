import torch
torch.backends.cuda.matmul.allow_tf32 = True
def t(m, n, k, ld=None, reps=10):
    if ld is None:
        a = torch.randn(m, k, device='cuda'); b = torch.randn(n, k, device='cuda')
    else:
        # column-major m×k with leading dimension ld, as the driver's P
        ba = torch.randn(k, ld, device='cuda'); a = ba[:, :m].t()
        bb = torch.randn(k, ld, device='cuda'); b = bb[:, :n].t()
    c = torch.empty(m, n, device='cuda')
    for _ in range(3): torch.mm(a, b.t(), out=c)
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(reps): torch.mm(a, b.t(), out=c)
    e.record(); torch.cuda.synchronize()
    ms = s.elapsed_time(e) / reps
    print(f"{m}x{n}x{k} ld={ld}: {ms*1000:.1f} us {2*m*n*k/ms/1e9:.0f} TF/s", flush=True)
for ld in [None, 16384]:
    t(15872, 2048, 768, ld); t(8192, 8192, 768, ld); t(15872, 256, 768, ld); t(16384, 16384, 256, ld); t(8192, 1024, 768, ld); t(4096, 4096, 768, ld)
t(16384, 16384, 4096)
