# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


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

    @torch.no_grad()
    def merged(self):
        """A plain nn.Linear with W' = W + (alpha/r) B A."""
        layer = nn.Linear(self.base.in_features, self.base.out_features, device=self.A.device)
        layer.weight.copy_(self.base.weight + self.scale * self.B @ self.A)
        layer.bias.copy_(self.base.bias)
        return layer


lora = LoRALinear(nn.Linear(256, 256).to(device), r=8, alpha=16)
with torch.no_grad():
    lora.B.normal_(std=0.02)  # zh: 假装已经训练过：B 不再是 0 | en: pretend it has been trained: B is no longer 0
x = torch.randn(128, 256, device=device)

merged = lora.merged()
with torch.no_grad():
    print(f"LoRA layer vs merged layer, max abs difference: {(lora(x) - merged(x)).abs().max().item():.1e}")
print("merged layer:", merged)
print("parameters: merged", sum(p.numel() for p in merged.parameters()), " base", sum(p.numel() for p in lora.base.parameters()))

# %%
# zh: 每个输入要做的乘加次数：没合并时多出降维和升维两次小矩阵乘法
# en: Multiply-adds per input: unmerged, there are two extra small products (down to r, back up).
d_in, d_out, r = 256, 256, 8
print("unmerged:", d_in * d_out + r * (d_in + d_out), " merged:", d_in * d_out)

# %%
# zh: 拆回去：W' - (alpha/r) B A。浮点舍入让它和原来的 W 差一点点
# en: Unmerge: W' - (alpha/r) B A. Floating-point rounding leaves it a hair away from the original W.
with torch.no_grad():
    W_back = merged.weight - lora.scale * lora.B @ lora.A
    print("equal to W bit for bit:", torch.equal(W_back, lora.base.weight))
    print(f"max abs difference: {(W_back - lora.base.weight).abs().max().item():.1e}")
