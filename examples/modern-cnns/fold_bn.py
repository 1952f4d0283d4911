# %%
import copy
import statistics
import time

import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
conv = nn.Conv2d(16, 32, 3, padding=1, bias=False).to(device)
bn = nn.BatchNorm2d(32).to(device)
# zh: 假装训练过：用几个批量更新滑动统计量，再给 gamma、beta 随机值
# en: Pretend it was trained: a few batches update the running statistics, then random gamma and beta.
with torch.no_grad():
    for _ in range(20):
        bn(conv(torch.randn(8, 16, 12, 12, device=device) + 1))
    nn.init.uniform_(bn.weight, 0.5, 1.5)
    nn.init.uniform_(bn.bias, -0.5, 0.5)
conv.eval()
bn.eval()


def fold(conv, bn):
    # zh: BN(conv(x)) = a * (W * x + b) + (beta - a * mean)，a = gamma / sqrt(var + eps)，每个输出通道一个
    # en: BN(conv(x)) = a * (W * x + b) + (beta - a * mean), with a = gamma / sqrt(var + eps), one per output channel.
    a = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding, bias=True)
    b = conv.bias if conv.bias is not None else torch.zeros_like(bn.running_mean)
    with torch.no_grad():
        fused.weight.copy_(conv.weight * a[:, None, None, None])  # zh: 缩放每个输出通道的卷积核 | en: scale each output channel's kernel
        fused.bias.copy_((b - bn.running_mean) * a + bn.bias)
    return fused.to(conv.weight.device).eval()


x = torch.randn(4, 16, 12, 12, device=device)
with torch.no_grad():
    ref = bn(conv(x))
    folded = fold(conv, bn)
    library = fuse_conv_bn_eval(conv, bn)  # zh: PyTorch 自带的同一件事 | en: PyTorch's own version of the same
    print(f"folded by hand    vs conv + BN, max difference: {(folded(x) - ref).abs().max().item():.1e}")
    print(f"fuse_conv_bn_eval vs conv + BN, max difference: {(library(x) - ref).abs().max().item():.1e}")
print("parameters + buffers: conv + BN", sum(t.numel() for m in (conv, bn) for t in [*m.parameters(), *m.buffers()]),
      " folded conv", sum(p.numel() for p in folded.parameters()))

# %%
# zh: 折叠只在评估模式下成立：训练模式的 BN 用的是当前批量的统计量
# en: Folding holds only in evaluation mode: BN in training mode uses the current batch's statistics.
bn_train = copy.deepcopy(bn).train()
with torch.no_grad():
    print(f"folded vs conv + BN in training mode, max difference: {(folded(x) - bn_train(conv(x))).abs().max().item():.3f}")

# %% volatile=true
# zh: 推理时少一层：一个卷积 + BN + ReLU 的小网络，折叠前后的前向时间
# en: One layer less at inference: a small conv + BN + ReLU network, forward time before and after folding.
if device == "cpu":
    torch.set_num_threads(1)  # zh: 单线程计时，干扰较小 | en: time one thread: less noise
net = nn.Sequential(*[m for _ in range(4) for m in (nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())]).to(device).eval()
fused_net = nn.Sequential(*[m for i in range(0, 12, 3) for m in (fuse_conv_bn_eval(net[i], net[i + 1]), nn.ReLU())]).eval()
xb = torch.randn(16, 32, 32, 32, device=device)


def sync():
    if device != "cpu":
        torch.accelerator.synchronize()


times = {"conv + BN": [], "folded": []}
with torch.no_grad():
    print(f"same outputs (max difference {(net(xb) - fused_net(xb)).abs().max().item():.1e})")
    for _ in range(10):
        for name, m in (("conv + BN", net), ("folded", fused_net)):
            sync()
            t0 = time.perf_counter()
            m(xb)
            sync()
            times[name].append((time.perf_counter() - t0) * 1e3)
med = {name: statistics.median(ts) for name, ts in times.items()}
for name, ms in med.items():
    print(f"{name:9s} {ms:7.2f} ms")
print(f"conv + BN / folded: {med['conv + BN'] / med['folded']:.2f}")
