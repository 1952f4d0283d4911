# %%
import copy
import logging
import statistics
import time
from pathlib import Path

# zh: 和上一个示例一样，在导入 torchao 之前压下它和 pytree 的日志
# en: As in the previous example, quiet torchao's and pytree's log lines before the import.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 单线程计时，机器上别的负载干扰较小 | en: time one thread: less disturbed by other load
    # zh: CPU 有没有 int8 点积指令（AVX512-VNNI、AMX-INT8）？
    # en: Does the CPU have int8 dot-product instructions (AVX512-VNNI, AMX-INT8)?
    cpuinfo = Path("/proc/cpuinfo")
    flags = set(cpuinfo.read_text().split()) if cpuinfo.exists() else set()
    for flag in ("avx512_vnni", "amx_int8"):
        print(f"{flag}: {flag in flags}")

d = 1024
model = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d)).to(device).eval()
print("weights:", sum(m.weight.numel() for m in model if isinstance(m, nn.Linear)))
models = {"float32": model}
for name, config in [("int8 weight-only", Int8WeightOnlyConfig()), ("int8 dynamic", Int8DynamicActivationInt8WeightConfig())]:
    models[name] = copy.deepcopy(model)
    quantize_(models[name], config)

x = torch.randn(64, d, device=device)
with torch.no_grad():
    ref = model(x)
    for name, m in models.items():
        err = ((m(x) - ref).norm() / ref.norm()).item()
        print(f"{name:17s} relative output error {err:.4f}")


# %% volatile=true
def sync():
    if device != "cpu":
        torch.accelerator.synchronize()


@torch.no_grad()
def time_ms(x, repeats=15):
    # zh: 三个模型交替计时，取中位数
    # en: Time the three models alternately and take medians.
    times = {name: [] for name in models}
    for m in models.values():
        m(x)  # zh: 预热 | en: warm-up
    for _ in range(repeats):
        for name, m in models.items():
            sync()
            t0 = time.perf_counter()
            m(x)
            sync()
            times[name].append((time.perf_counter() - t0) * 1e3)
    return {name: statistics.median(ts) for name, ts in times.items()}


for batch in (64, 1):
    res = time_ms(torch.randn(batch, d, device=device))
    for name, ms in res.items():
        print(f"batch {batch:2d}  {name:17s} {ms:7.3f} ms   float32 / this = {res['float32'] / ms:.2f}")
