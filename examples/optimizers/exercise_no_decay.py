# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10),
)

decay, no_decay = [], []
for name, p in model.named_parameters():
    # zh: Linear 和 Conv2d 的权重至少 2 维；偏置和 BatchNorm 的缩放、平移只有 1 维
    # en: weights of Linear and Conv2d have 2+ dimensions; biases and BatchNorm's scale/shift have 1
    (decay if p.ndim >= 2 else no_decay).append(p)
    print(f"{name:9s} {str(tuple(p.shape)):14s} {'decay' if p.ndim >= 2 else 'no decay'}")

optimizer = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-3
)
for g in optimizer.param_groups:
    print(f"weight_decay={g['weight_decay']}: {sum(p.numel() for p in g['params'])} numbers")

# %%
# zh: 检查：梯度为零时，AdamW 的一步只剩衰减，p <- p * (1 - lr * wd)
# en: check: with zero gradients, AdamW's step is the decay alone, p <- p * (1 - lr * wd)
before = [p.detach().clone() for p in model.parameters()]
for p in model.parameters():
    p.grad = torch.zeros_like(p)
optimizer.step()
for (name, p), old in zip(model.named_parameters(), before, strict=True):
    print(f"{name:9s} unchanged: {torch.equal(p.detach(), old)}")
