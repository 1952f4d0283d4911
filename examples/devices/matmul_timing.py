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
    # zh: 加速器上的运算是异步的：计时前后要等它真正算完
    # en: Work on an accelerator is asynchronous: wait for it to finish around the timing.
    on_acc = a.device.type != "cpu"
    wait = torch.accelerator.synchronize if (on_acc and sync) else (lambda: None)
    a @ b  # zh: 预热（第一次调用还要初始化 cuBLAS 等库） | en: warm-up (the first call also initialises cuBLAS and the like)
    wait()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        wait()
        best = min(best, time.perf_counter() - t0)
    if on_acc:
        torch.accelerator.synchronize()
    return best


# %% volatile=true
timings = {"CPU": bench(a, b)}
if torch.accelerator.is_available():
    device = torch.accelerator.current_accelerator().type
    a_acc, b_acc = a.to(device), b.to(device)
    timings["GPU"] = bench(a_acc, b_acc)
    print(f"GPU without synchronize: {bench(a_acc, b_acc, sync=False) * 1e3:.3f} ms (launch only)")
else:
    print("No accelerator: timing the CPU only.")
flops = 2 * n**3
for name, t in timings.items():
    print(f"{name}: {t * 1e3:.3f} ms, {flops / t / 1e9:.1f} GFLOP/s")

# %% volatile=true caption_zh="一次 1024×1024 float32 矩阵乘法在 CPU 和 GPU 上的耗时"
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
