# %%
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, scale=2.0):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features, device=base.weight.device))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=base.weight.device))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scale = scale  # zh: 这里直接给出缩放系数，好比较不同的取法 | en: the scale is passed in directly, to compare ways of choosing it

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.A.T @ self.B.T)


base = nn.Linear(256, 256).to(device)
x, target = torch.randn(64, 256, device=device), torch.randn(64, 256, device=device)


def output_change(r, scale, lr=1e-3, steps=1, seed=1):
    """Relative change of the layer's output after `steps` Adam steps."""
    torch.manual_seed(seed)
    lora = LoRALinear(base, r, scale)
    opt = torch.optim.Adam([lora.A, lora.B], lr=lr)
    with torch.no_grad():
        before = lora(x)
    for _step in range(steps):
        loss = F.mse_loss(lora(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return ((lora(x) - before).norm() / before.norm()).item()


# %%
# zh: 同样的 alpha = 8、同样的学习率，只改 r：Adam 走 1 步、20 步之后，输出变了多少
# en: The same alpha = 8 and learning rate, only r changes: how much the output has changed after 1 and after 20 Adam steps.
alpha, ranks = 8, [1, 4, 16, 64]
for steps in [1, 20]:
    print(f"after {steps} step(s)")
    print(f"{'scale':>16s}" + "".join(f"{f'r={r}':>9s}" for r in ranks))
    for label, scale in [("alpha", lambda r: alpha), ("alpha / r", lambda r: alpha / r), ("alpha / sqrt(r)", lambda r: alpha / math.sqrt(r))]:
        print(f"{label:>16s}" + "".join(f"{output_change(r, scale(r), steps=steps):9.4f}" for r in ranks))
