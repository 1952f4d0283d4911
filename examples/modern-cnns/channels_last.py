# %%
import statistics
import time

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.arange(2 * 3 * 2 * 2, dtype=torch.float32, device=device).reshape(2, 3, 2, 2)  # zh: (N, C, H, W) | en: (N, C, H, W)
x_cl = x.to(memory_format=torch.channels_last)
# zh: 形状和数值不变，变的是步长：内存里同一个像素的 C 个通道挨在一起（NHWC）
# en: Same shape and values; the strides change: a pixel's C channels sit next to each other in memory (NHWC).
print("shape:", tuple(x_cl.shape), " equal values:", torch.equal(x, x_cl))
print("strides, contiguous NCHW:", x.stride(), "  channels_last:", x_cl.stride())
print("is_contiguous():                                 ", x.is_contiguous(), x_cl.is_contiguous())
print("is_contiguous(memory_format=torch.channels_last):",
      x.is_contiguous(memory_format=torch.channels_last), x_cl.is_contiguous(memory_format=torch.channels_last))
# zh: 按内存顺序读出前 6 个数：NCHW 先走完一个通道的所有像素，NHWC 先走完一个像素的所有通道
# en: The first 6 numbers in memory order: NCHW walks a channel's pixels first, NHWC a pixel's channels first.
# zh: as_strided 以步长 1 直接读底层存储
# en: as_strided with stride 1 reads the underlying storage directly.
print("memory order NCHW:", x.as_strided((6,), (1,)).tolist())
print("memory order NHWC:", x_cl.as_strided((6,), (1,)).tolist())

# %%
# zh: model.to(memory_format=...) 改的是 4 维的参数（卷积核）；卷积的输出沿用输入的格式
# en: model.to(memory_format=...) converts the 4-D parameters (the kernels); a conv's output keeps its input's format.
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU()).to(device)
ref = model(x)
model = model.to(memory_format=torch.channels_last)
print("conv weight channels_last:", model[0].weight.is_contiguous(memory_format=torch.channels_last),
      " bias (1-D) unchanged:", tuple(model[0].bias.shape))
out = model(x_cl)
print("output channels_last:", out.is_contiguous(memory_format=torch.channels_last))
print(f"same result as NCHW, max difference: {(out - ref).abs().max().item():.1e}")

# %% volatile=true
# zh: 计时：同一个卷积网络的前向加反向，两种内存格式
# en: Timing: forward plus backward of the same conv net, in both memory formats.
if device == "cpu":
    torch.set_num_threads(1)  # zh: 单线程计时，干扰较小 | en: time one thread: less noise


def sync():
    if device != "cpu":
        torch.accelerator.synchronize()


def make_net():
    torch.manual_seed(0)
    layers = [m for _ in range(3) for m in (nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())]
    return nn.Sequential(*layers).to(device)


nets = {"NCHW": make_net(), "channels_last": make_net().to(memory_format=torch.channels_last)}
xs = torch.randn(16, 32, 32, 32, device=device)
inputs = {"NCHW": xs, "channels_last": xs.to(memory_format=torch.channels_last)}
times = {name: [] for name in nets}
for name in nets:  # zh: 预热 | en: warm-up
    nets[name](inputs[name]).sum().backward()
for _ in range(8):
    for name, net in nets.items():
        sync()
        t0 = time.perf_counter()
        net(inputs[name]).sum().backward()
        sync()
        times[name].append((time.perf_counter() - t0) * 1e3)
med = {name: statistics.median(ts) for name, ts in times.items()}
for name, ms in med.items():
    print(f"{name:13s} forward + backward {ms:7.2f} ms")
print(f"NCHW / channels_last: {med['NCHW'] / med['channels_last']:.2f}")
