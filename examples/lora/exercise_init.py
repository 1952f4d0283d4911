# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

base = nn.Linear(64, 256).to(device).requires_grad_(False)
x, target = torch.randn(32, 64, device=device), torch.randn(32, 256, device=device)
r, scale = 4, 2.0


def make(kind):
    A = torch.empty(r, 64, device=device)
    B = torch.empty(256, r, device=device)
    nn.init.kaiming_uniform_(A, a=math.sqrt(5))
    nn.init.kaiming_uniform_(B, a=math.sqrt(5))
    if kind in ("A random, B zero", "both zero"):
        B.zero_()
    if kind in ("A zero, B random", "both zero"):
        A.zero_()
    return A.requires_grad_(), B.requires_grad_()


# %%
print(f"{'':17s} {'starts at base':>14s} {'max |A.grad|':>13s} {'max |B.grad|':>13s}")
for kind in ["A random, B zero", "A zero, B random", "both zero", "both random"]:
    A, B = make(kind)
    out = base(x) + scale * (x @ A.T @ B.T)
    ((out - target) ** 2).mean().backward()
    print(f"{kind:17s} {str(torch.equal(out, base(x))):>14s} {A.grad.abs().max().item():13.4f} {B.grad.abs().max().item():13.4f}")
