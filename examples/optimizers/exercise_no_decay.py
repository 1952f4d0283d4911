# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10),
)

decay, no_decay = [], []
for name, p in model.named_parameters():
    # weights of Linear and Conv2d have 2+ dimensions; biases and BatchNorm's scale/shift have 1
    (decay if p.ndim >= 2 else no_decay).append(p)
    print(f"{name:9s} {str(tuple(p.shape)):14s} {'decay' if p.ndim >= 2 else 'no decay'}")

optimizer = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-3
)
for g in optimizer.param_groups:
    print(f"weight_decay={g['weight_decay']}: {sum(p.numel() for p in g['params'])} numbers")

# %%
# check: with zero gradients, AdamW's step is the decay alone, p <- p * (1 - lr * wd)
before = [p.detach().clone() for p in model.parameters()]
for p in model.parameters():
    p.grad = torch.zeros_like(p)
optimizer.step()
for (name, p), old in zip(model.named_parameters(), before, strict=True):
    print(f"{name:9s} unchanged: {torch.equal(p.detach(), old)}")
