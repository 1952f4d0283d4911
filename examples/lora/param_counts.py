# %%
import math

import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features, device=base.weight.device))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=base.weight.device))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.A.T @ self.B.T)


def count(module):
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


# zh: 一个 4096×4096 的层（大语言模型里常见的大小）。meta 设备只记形状，不分配内存
# en: One 4096×4096 layer (a common size in large language models). The meta device records shapes, allocating no memory.
d = 4096
full = count(nn.Linear(d, d, device="meta"))
print(f"{'rank r':>7s} {'trainable':>12s} {'of full':>8s}")
print(f"{'full':>7s} {full:12,d} {1:8.2%}")
for r in [1, 2, 4, 8, 16, 64, 256]:
    n = count(LoRALinear(nn.Linear(d, d, device="meta"), r=r))
    print(f"{r:7d} {n:12,d} {n / full:8.2%}")

# %%
# zh: 训练时每个可训练参数还要一份梯度，Adam 再存两份（一阶矩、二阶矩），都是 float32
# en: In training, every trainable parameter also needs a gradient, and Adam keeps two more (first and second moments), all float32.
MiB = 2**20
weights = full * 4
for name, trainable in [("full fine-tuning", full), ("LoRA r=8", count(LoRALinear(nn.Linear(d, d, device="meta"), r=8)))]:
    extra = trainable * 4 * 3  # zh: 梯度 + Adam 的两份状态 | en: gradient + Adam's two states
    print(f"{name:17s} weights {weights / MiB:5.1f} MiB + gradients and Adam state {extra / MiB:7.2f} MiB")


# %%
# zh: 本章训练用的小 MLP：三个 nn.Linear 全部套上 LoRA
# en: The small MLP this chapter trains: LoRA on all three nn.Linear layers.
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(64, 256), nn.Linear(256, 256), nn.Linear(256, 10)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


print("MLP, full fine-tuning:", count(MLP()))
for r in [1, 4, 16]:
    model = MLP()
    for name in ["fc1", "fc2", "fc3"]:
        setattr(model, name, LoRALinear(getattr(model, name), r=r))
    print(f"MLP, LoRA r={r:2d}: {count(model):6d} = {r} * ({64 + 256} + {256 + 256} + {256 + 10})")
