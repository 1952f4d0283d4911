# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class LoRALinear(nn.Module):
    """y = W x + b + (alpha / r) B A x, with W and b frozen."""

    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)  # zh: 原来的层冻结不动 | en: the original layer stays frozen
        self.A = nn.Parameter(torch.empty(r, base.in_features, device=base.weight.device))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=base.weight.device))  # zh: B 从 0 开始 | en: B starts at 0
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))  # zh: A 随机，和 nn.Linear 的权重一样初始化 | en: A random, initialised like nn.Linear's weight
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.A.T @ self.B.T)  # zh: 先降到 r 维，再升回来 | en: down to r dims, then back up


base = nn.Linear(64, 256).to(device)
lora = LoRALinear(base, r=4, alpha=8)
x = torch.randn(32, 64, device=device)
print("LoRA output == base output, bit for bit:", torch.equal(lora(x), base(x)))
for name, p in lora.named_parameters():
    print(f"{name:12s} {str(tuple(p.shape)):10s} requires_grad={p.requires_grad}")

# %%
full = sum(p.numel() for p in base.parameters())
trainable = sum(p.numel() for p in lora.parameters() if p.requires_grad)
print(f"full fine-tuning trains {full} parameters; LoRA with r=4 trains {trainable} = 4 * (64 + 256), {trainable / full:.1%}")

# %%
# zh: 第一次反向传播：B = 0，所以 A 的梯度恰好是 0，只有 B 有梯度
# en: The first backward pass: B = 0, so A's gradient is exactly 0 and only B gets one.
target = torch.randn(32, 256, device=device)
loss = ((lora(x) - target) ** 2).mean()
loss.backward()
print("base.weight.grad:", base.weight.grad)
print(f"|A.grad| max = {lora.A.grad.abs().max().item()},  |B.grad| max = {lora.B.grad.abs().max().item():.4f}")

# zh: 手写一步梯度下降之后 B 不再是 0，A 也开始有梯度
# en: After one plain gradient step by hand B is no longer 0, and A starts getting gradients too.
with torch.no_grad():
    for p in (lora.A, lora.B):
        p -= 0.1 * p.grad
        p.grad = None
((lora(x) - target) ** 2).mean().backward()
print(f"after one step: |A.grad| max = {lora.A.grad.abs().max().item():.4f}, outputs still equal: {torch.equal(lora(x), base(x))}")

# %%
# zh: 权重的改变量 (alpha/r) B A 是 256×64 的矩阵，但秩最多是 r
# en: The weight change (alpha/r) B A is a 256×64 matrix, but its rank is at most r.
delta = lora.scale * lora.B @ lora.A
print("delta W:", tuple(delta.shape), " rank:", torch.linalg.matrix_rank(delta).item(), " rank of W:", torch.linalg.matrix_rank(base.weight).item())
with torch.no_grad():
    print(f"W x + b + delta W x vs LoRA output, max abs difference: {(x @ (base.weight + delta).T + base.bias - lora(x)).abs().max().item():.1e}")
