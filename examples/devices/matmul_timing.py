# %%
import time

import matplotlib.pyplot as plt
import torch

torch.manual_seed(0)
n = 1024
a = torch.randn(n, n)
b = torch.randn(n, n)


def bench(a, b, repeats=5, sync=True):
    """Best wall-clock time of a @ b, in seconds."""
    wait = torch.cuda.synchronize if (a.is_cuda and sync) else (lambda: None)
    a @ b  # warm-up (the first CUDA call also initialises cuBLAS)
    wait()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        wait()
        best = min(best, time.perf_counter() - t0)
    if a.is_cuda:
        torch.cuda.synchronize()
    return best


# %% volatile=true
timings = {"CPU": bench(a, b)}
if torch.cuda.is_available():
    a_gpu, b_gpu = a.cuda(), b.cuda()
    timings["GPU"] = bench(a_gpu, b_gpu)
    print(f"GPU without synchronize: {bench(a_gpu, b_gpu, sync=False) * 1e3:.3f} ms (launch only)")
else:
    print("No GPU: timing the CPU only.")
flops = 2 * n**3
for name, t in timings.items():
    print(f"{name}: {t * 1e3:.3f} ms, {flops / t / 1e9:.1f} GFLOP/s")

# %% volatile=true
fig, ax = plt.subplots(figsize=(6, 3.5))
names = list(timings)
bars = ax.bar(names, [timings[k] * 1e3 for k in names], width=0.5,
              color=["tab:blue", "tab:green"][: len(names)])
ax.bar_label(bars, fmt="%.2f ms")
ax.set_xlim(-1, len(names))
ax.margins(y=0.15)
ax.set_ylabel("time per product (ms)")
ax.set_title(f"{n}x{n} float32 matrix product")
plt.show()
