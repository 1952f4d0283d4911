# %%
import statistics
import time
from pathlib import Path

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
amp_dtype = torch.bfloat16 if device == "cpu" else torch.float16
# zh: 以矩阵乘法为主的模型：三个较大的 Linear 层
# en: A matmul-heavy model: three fairly large Linear layers.
model = nn.Sequential(
    nn.Linear(512, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(), nn.Linear(1024, 10)
).to(device)
x = torch.randn(256, 512, device=device)
y = torch.randint(0, 10, (256,), device=device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

if device == "cpu":
    # zh: CPU 有没有 bfloat16 的硬件指令（AVX512-BF16、AMX）？
    # en: Does the CPU have bfloat16 instructions (AVX512-BF16, AMX)?
    print("CPU capability:", torch.backends.cpu.get_cpu_capability())
    cpuinfo = Path("/proc/cpuinfo")
    flags = set(cpuinfo.read_text().split()) if cpuinfo.exists() else set()
    for flag in ("avx512_bf16", "amx_bf16", "avx512_fp16"):
        print(f"{flag}: {flag in flags}")


def sync():
    if device != "cpu":
        torch.accelerator.synchronize()


def time_ms(fns, repeats=15):
    # zh: 几种写法交替计时，机器上别的负载对它们的影响差不多；返回每种的中位数和最小值
    # en: Time the variants alternately so other load on the machine hits them alike; return median and best.
    times = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # zh: 预热 | en: warm-up
    for _ in range(repeats):
        for name, fn in fns.items():
            sync()
            t0 = time.perf_counter()
            fn()
            sync()
            times[name].append((time.perf_counter() - t0) * 1e3)
    return {name: (statistics.median(ts), min(ts)) for name, ts in times.items()}


def forward(use_amp):
    with torch.no_grad(), torch.autocast(device, dtype=amp_dtype, enabled=use_amp):
        return model(x)


def train_step(use_amp):
    with torch.autocast(device, dtype=amp_dtype, enabled=use_amp):
        loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


# %% volatile=true
# zh: enabled=False 时 autocast 什么都不做，同一段代码就能比较两种精度
# en: With enabled=False autocast does nothing, so the same code measures both precisions.
low = str(amp_dtype).removeprefix("torch.")
for name, fn in (("forward", forward), ("train step", train_step)):
    res = time_ms({"float32": lambda: fn(False), low: lambda: fn(True)})  # noqa: B023 - called at once, in this iteration
    for variant, (median, best) in res.items():
        print(f"{name:>10}, {variant:>8}: median {median:6.1f} ms, best {best:6.1f} ms")
    print(f"{name:>10}: autocast / float32 median time = {res[low][0] / res['float32'][0]:.2f}")
